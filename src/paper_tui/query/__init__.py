"""The query language, without Whoosh: the words a reader types (fields, ranges,
``added:``, the team's words) parsed into a plan the index answers, and the
ranges every number and date a user or a server gives is checked against."""
