"""The library's own copy of the papers: each source's papers as imported
(``sources/``, its manifest) and when each paper first arrived."""
