"""The one door to citeproc-py's internals: a style loaded with our subclasses of its element
classes, which render as citeproc-js (the processor Zotero runs, the reference) does.

citeproc-py (pinned to 0.11 in ``pyproject.toml``; checked below) parses a CSL style into
lxml elements of its own classes, one per CSL element. We parse with the same classes,
except where one of ours (a subclass) fixes what citeproc-py renders unlike citeproc-js,
each fix named after the CSL rule it follows (``tests/test_citation_styles.py`` renders
40 papers in four styles with both and compares):

- substituted variables (a title standing in for missing authors) are suppressed in the
  rest of the entry, also when the substitute is a macro;
- ``punctuation-in-quote`` (en-US): a comma or period after a closing quote goes inside;
- ``second-field-align`` (IEEE, Nature): the first field is set off by a space;
- ``text-case="title"`` as citeproc-js does it (its stop words, capitals after a hyphen
  or a colon, words already holding a capital untouched);
- ``initialize="false"`` (Chicago): given names are never cut to initials.

It also makes rendering fast enough for hundreds of papers: a macro, a term and whether an
element calls a variable are looked up once per style instead of by XPath every time (the
element proxies are kept alive with the tree, so what is cached on them stays).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import citeproc
from citeproc import model, source
from citeproc.string import MixedString, String
from lxml import etree

from paper_tui.citations.title_case import title_case

if not citeproc.__version__.startswith("0.11."):  # the methods below are 0.11's
    raise ImportError(f"paper-tui needs citeproc-py 0.11, not {citeproc.__version__}")

_NS = "http://purl.org/net/xbiblio/csl"
_QUOTE_MARKS = frozenset("‘’“”\"«»")
"""Left out of sort keys, as citeproc-js renders a key: without quotes."""


# -- caches ----------------------------------------------------------------------------------
class _Cached(model.CitationStylesElement):
    """What every element of ours looks up once."""

    def get_root(self) -> Any:
        root = self.__dict__.get("_root")
        if root is None:
            root = self.__dict__["_root"] = super().get_root()
        return root

    def get_formatter(self) -> Any:
        root = self.get_root()
        return root.style.formatter if isinstance(root, model.Locale) else root.formatter

    def get_macro(self, name: str) -> Any:
        macros = self.get_root().__dict__.setdefault("_macros", {})
        if name not in macros:
            macros[name] = super().get_macro(name)
        return macros[name]

    def get_layout(self) -> Any:
        layout = self.__dict__.get("_layout")
        if layout is None:
            layout = self.__dict__["_layout"] = super().get_layout()
        return layout

    def get_locale_option(self, name: str) -> Any:
        options = self.get_root().__dict__.setdefault("_locale_options", {})
        if name not in options:
            options[name] = super().get_locale_option(name)
        return options[name]

    def xpath_search(self, expression: str) -> list[Any]:
        """The style's tree does not change once parsed: each element answers an XPath
        expression once (a copy each time: callers may extend what they get)."""
        found = self.__dict__.setdefault("_xpath", {})
        hits = found.get(expression)
        if hits is None:
            hits = found[expression] = super().xpath_search(expression)
        return list(hits)

    def _type(self, item: Any) -> list[bool]:
        """``cs:if type="…"`` (asked for every entry): the attribute's types read once."""
        types = self.__dict__.get("_types")
        if types is None:
            types = self.__dict__["_types"] = [t.lower() for t in self.get("type").split()]
        kind = item.reference.type
        return [t == kind for t in types]


class CitationItem(source.CitationItem):
    """A cited item whose reference is looked up once (styles ask for it hundreds of
    times an entry)."""

    @property
    def reference(self) -> Any:
        found = self.__dict__.get("_reference")
        if found is None:
            found = self.__dict__["_reference"] = self.citation.bibliography.source[self.key]
        return found


def _calls_variable_cached(element: Any, compute: Any) -> bool:
    cached = element.__dict__.get("_calls_variable")
    if cached is None:
        cached = element.__dict__["_calls_variable"] = bool(compute())
    return cached


# -- substitution ----------------------------------------------------------------------------
def _layout(element: Any, context: Any) -> Any:
    """The layout an element renders in (its context's, for an element in a macro).
    Note: an lxml element without children is false, so never ``context or element``."""
    return (context if context is not None else element).get_layout()


def _substituted(element: Any, context: Any) -> set[str]:
    """The variables substituted so far in the entry being rendered: kept in the layout's
    ``repressed``, which citeproc-py empties before each entry and each sort key."""
    repressed = _layout(element, context).repressed
    return repressed.setdefault("paper-tui:substituted", set())


def _repressed(element: Any, context: Any, variable: str) -> bool:
    return variable in _substituted(element, context)


def _record_rendered(element: Any, context: Any, variable: str) -> None:
    """Note a variable rendered while a substitute renders (see :class:`Substitute`)."""
    recording = _layout(element, context).__dict__.get("_recording")
    if recording is not None:
        recording.add(variable)


class Text(_Cached, model.Text):
    def calls_variable(self) -> bool:
        return _calls_variable_cached(self, super().calls_variable)

    def _variable(self, item: Any, context: Any) -> Any:
        variable = self.get("variable")
        if _repressed(self, context, variable):
            return None
        text = super()._variable(item, context)
        if text:
            _record_rendered(self, context, variable)
        return text

    def _format_last_page(self, first: str, last: str) -> str:
        """``page-range-format="chicago-16"``: two digits at least, more as needed
        (``4892–903``, ``1496–500``); citeproc-py writes a four-digit range whose first
        two digits change in full, which is the 15th edition's rule."""
        if (self.get_root().get_option("page-range-format") != "chicago-16"
                or not (first.isdigit() and last.isdigit()) or len(first) != len(last)):
            return super()._format_last_page(first, last)
        number = int(first)
        if number < 100 or number % 100 == 0:
            return last
        common = next((i for i, (a, b) in enumerate(zip(first, last, strict=True)) if a != b),
                      len(first))
        return last[min(common, len(first) - (1 if number % 100 < 10 else 2)):]

    def case(self, text: Any, language: Any = None) -> Any:
        if self.get("text-case") == "title":
            if language != "en":
                return text
            return title_case(text)
        return super().case(text, language)


class Names(_Cached, model.Names):
    def substitute(self) -> Any:
        if "_substitute" not in self.__dict__:
            self.__dict__["_substitute"] = super().substitute()
        return self.__dict__["_substitute"]

    def process(self, item: Any, names_context: Any = None, context: Any = None,
                **kwargs: Any) -> Any:
        variables = self.get("variable").split()
        if all(_repressed(self, context, v) for v in variables):
            raise model.VariableError
        text = super().process(item, names_context=names_context, context=context, **kwargs)
        if text:
            for variable in variables:
                if variable.replace("-", "_") in item.reference:
                    _record_rendered(self, context, variable)
        return text


class Substitute(_Cached, model.Substitute):
    """The first child that renders stands in; every variable it rendered (also inside a
    macro) is suppressed for the rest of the entry."""

    def render(self, item: Any, context: Any = None, **kwargs: Any) -> Any:
        for child in self.getchildren():
            layout = _layout(self, context)
            outer = layout.__dict__.get("_recording")
            rendered: set[str] = set()
            layout.__dict__["_recording"] = rendered
            try:
                if isinstance(child, model.Names) and child.name is None:
                    names = self.xpath_search("./parent::cs:names[1]")[0]
                    text = child.render(item, names_context=names, context=context,
                                        **kwargs)
                else:
                    text = child.render(item, context=context, **kwargs)
            except model.VariableError:
                continue
            finally:
                layout.__dict__["_recording"] = outer
            if text:
                _substituted(self, context).update(rendered)
                if outer is not None:
                    outer.update(rendered)
                return text
        return None


# -- names -----------------------------------------------------------------------------------
class Name(_Cached, model.Name):
    def initialize(self, given: Any, mark: Any, context: Any) -> Any:
        if self.get_option("initialize", context) == "false":
            # Never initialise; only a lone initial already there gets the mark
            # (``James T Kirk`` -> ``James T. Kirk``).
            words = [w + mark.strip() if len(w) == 1 and w.isupper() else w
                     for w in str(given).split()]
            return " ".join(words)
        return super().initialize(given, mark, context)

    def get_option(self, name: str, context: Any = None, sort_options: Any = None) -> Any:
        if sort_options is not None:
            return super().get_option(name, context, sort_options)
        where = context if context is not None else self
        options = self.__dict__.setdefault("_options", {})
        key = (name, id(where))  # every element stays alive with its tree: ids are stable
        if key not in options:
            if name == "initialize":
                value = self.get("initialize")
                if value is None:
                    parent = where.xpath_search(
                        "./ancestor::*[self::cs:citation or self::cs:bibliography][1]")[0]
                    value = parent.get("initialize", self.get_root().get("initialize", "true"))
            else:
                value = super().get_option(name, context, sort_options)
            options[key] = value
        return options[key]


class Macro(_Cached, model.Macro):
    def calls_variable(self) -> bool:
        return _calls_variable_cached(self, super().calls_variable)


# -- locales ---------------------------------------------------------------------------------
class Locale(_Cached, model.Locale):
    _MISSING = object()

    def get_term(self, name: str, form: Any = None, zero_padded: bool = False) -> Any:
        terms = self.__dict__.setdefault("_terms", {})
        key = (name, form, zero_padded)
        found = terms.get(key)
        if found is None:
            try:
                found = super().get_term(name, form, zero_padded)
            except IndexError:
                found = self._MISSING
            terms[key] = found
        if found is self._MISSING:
            raise IndexError(name)
        return found


class Style(_Cached, model.Style):
    def set_locale_list(self, output_locale: str, validate: bool = False) -> None:
        """As citeproc-py's, with the locale files parsed by our parser (cached terms)."""
        self.locales: list[Any] = []
        added: set[str] = set()

        def in_style(lang: str | None) -> None:
            expr = f'./cs:locale[@xml:lang="{lang}"]' if lang else "./cs:locale[not(@xml:lang)]"
            self.locales.extend(self.xpath_search(expr)[:1])

        def from_file(lang: str) -> None:
            if lang not in added:
                path = Path(citeproc.LOCALES_PATH) / f"locales-{lang}.xml"
                locale = parse(path.read_bytes(), path)
                self.locales.append(locale)
                self.__dict__.setdefault("_locale_elements", []).extend(locale.iter())
                added.add(lang)

        language = output_locale.split("-")[0]
        in_style(output_locale)
        in_style(language)
        in_style(None)
        if output_locale in citeproc.LANGUAGE_NAMES:
            from_file(output_locale)
        if language in citeproc.PRIMARY_DIALECTS:
            from_file(citeproc.PRIMARY_DIALECTS[language])
        from_file("en-US")
        for locale in self.locales:
            locale.style = self


# -- sorting ---------------------------------------------------------------------------------
def collation_key(value: Any) -> Any:
    """A sort key's text as a collation compares it, near enough to citeproc-js's
    (``localeCompare``): compatibility forms folded (``L²EAP`` as ``L2EAP``), accents and
    case and quotes ignored; numbers stay numbers."""
    if value is None or isinstance(value, int):
        return value
    text = str(value)
    if text.isdigit():
        return int(text)
    folded = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in folded if not unicodedata.combining(ch)
                   and ch not in _QUOTE_MARKS).casefold()


class Sort(_Cached, model.Sort):
    def sort(self, items: list[Any], context: Any) -> list[Any]:
        """citeproc-py's multi-key sort (an empty key last, whatever the direction), with
        keys compared as :func:`collation_key` makes them."""
        columns = []
        for key in self.findall("cs:key", self.nsmap):
            descending = key.get("sort", "ascending").lower() == "descending"
            columns.append(([collation_key(k) for k in key.sort_keys(items, context)],
                            descending))

        def compare(left: int, right: int) -> int:
            for values, descending in columns:
                a, b = values[left], values[right]
                if a is None or b is None:
                    if a is None and b is None:
                        continue
                    return 1 if a is None else -1
                if type(a) is not type(b):
                    a, b = str(a), str(b)
                result = (a > b) - (a < b)
                if result:
                    return -result if descending else result
            return 0

        order = sorted(range(len(items)), key=functools.cmp_to_key(compare))
        return [items[i] for i in order]


# -- the layout ------------------------------------------------------------------------------
class Layout(_Cached, model.Layout):
    def render_bibliography(self, citation_items: Iterable[Any]) -> list[Any]:
        """Each entry on its own; the first field set off by a space when the style aligns
        the second field (``[1] A. Author, …``)."""
        bibliography = self.getparent()
        aligned = bibliography.get("second-field-align") is not None
        children = list(self.iterchildren())
        output = []
        for item in citation_items:
            self.repressed: dict[str, Any] = {}
            if aligned and len(children) > 1:
                first = self._render_some(item, children[:1])
                rest = self._render_some(item, children[1:])
                body = first + " " + rest if first is not None and rest is not None \
                    else first if rest is None else rest
            else:
                body = self.render_children(item)
            text = self.format(self.wrap(body))
            if text is not None:
                output.append(_punctuation_in_quote(self, text))
        return output

    def _render_some(self, item: Any, children: list[Any]) -> Any:
        output = []
        for child in children:
            try:
                text = child.render(item)
            except model.VariableError:
                continue
            if text is not None:
                output.append(text)
        return model.join(output, "") if output else None

    def render_citation(self, citation: Any, callback: Any) -> Any:
        text = super().render_citation(citation, callback)
        return _punctuation_in_quote(self, text) if text is not None else text


def _punctuation_in_quote(element: Any, text: Any) -> Any:
    """With the locale's ``punctuation-in-quote``, ``”,`` becomes ``,”`` (and ``”.``
    ``.”``), as American English sets it."""
    option = element.get_locale_option("punctuation-in-quote")
    if str(option).lower() != "true":
        return text
    plain = str(text)
    moved = re.sub(r"([”’]+)([.,])", r"\2\1", plain)
    if moved == plain:
        return text
    return String(moved) if not isinstance(text, MixedString) else MixedString([moved])


# -- loading ---------------------------------------------------------------------------------
_OURS = {"text": Text, "names": Names, "substitute": Substitute, "name": Name,
         "macro": Macro, "locale": Locale, "style": Style, "sort": Sort, "layout": Layout}


def _lookup() -> etree.ElementNamespaceClassLookup:
    """CSL tag -> element class: ours where we fix something, else citeproc-py's own with
    the caches of :class:`_Cached` mixed in."""
    lookup = etree.ElementNamespaceClassLookup()
    namespace = lookup.get_namespace(_NS)
    namespace[None] = model.CitationStylesElement
    for cls in model.CitationStylesElement.__subclasses__():
        if cls.__module__ == model.__name__:
            tag = cls.__name__.replace("_", "-").lower()
            namespace[tag] = _OURS.get(tag) or type(cls.__name__, (_Cached, cls),
                                                    {"__module__": __name__})
    return lookup


_PARSER = etree.XMLParser(remove_comments=True, no_network=True, resolve_entities=False)
_PARSER.set_element_class_lookup(_lookup())


def parse(data: bytes, path: Path) -> Any:
    """A CSL file's root element, with our element classes (lxml's XMLSyntaxError when the
    bytes are not XML). What is cached on an element stays only while its Python proxy
    lives: the caller keeps the proxies alive (``list(root.iter())``)."""
    return etree.fromstring(data, _PARSER, base_url=str(path))
