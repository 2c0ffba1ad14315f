"""Decide whether a user's Cypher query is read-only before it ever reaches the engine.

The query is cut into tokens the way the engine's lexer cuts it (strings, backticked names,
comments, numbers, words, punctuation); only words outside strings and names are judged. Two
lists work together: a deny-list names what writes or reaches outside the store, so the refusal
can say which word was at fault, and an allow-list of clauses a statement may open with catches
statement kinds nobody thought of. Comments are dropped from the text that is returned, so the
engine runs exactly the tokens that were checked, whatever its own comment rules are.

Internal: :meth:`graphmem.Store.cypher` applies it to every query.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from ..errors import UnsafeQuery

__all__ = ["Token", "ensure_read_only", "tokenize"]

#: Clauses a query may open with, and open with again after UNION [ALL].
LEADING = frozenset({"MATCH", "OPTIONAL", "UNWIND", "WITH", "RETURN", "CALL"})

#: Keywords of statements and clauses that write, change settings or reach outside the store
#: (files, extensions, other databases, transactions), in kuzu 0.11 and ladybug 0.22.
FORBIDDEN = frozenset({
    "ALTER", "ANALYZE", "ATTACH", "BEGIN", "CHECKPOINT", "COMMENT", "COMMIT", "COPY", "CREATE",
    "DELETE", "DETACH", "DROP", "EXPORT", "FORCE", "IMPORT", "INSTALL", "LOAD", "MERGE",
    "REMOVE", "ROLLBACK", "SET", "UNINSTALL", "UPDATE", "USE",
})

#: Functions that change state (a sequence, the random seed) or read files. The file readers
#: are reachable only through CALL or LOAD FROM, both closed anyway; through CALL they crash
#: kuzu 0.11.3 outright.
FORBIDDEN_FUNCTIONS = frozenset({
    "NEXTVAL", "SETSEED", "READ_CSV_PARALLEL", "READ_CSV_SERIAL", "READ_PARQUET", "READ_NPY",
    "READ_PANDAS", "JSON_SCAN",
})

#: Table functions CALL may name: each only reads the catalogue or an index.
CALL_ALLOWED = frozenset({
    "SHOW_TABLES", "TABLE_INFO", "SHOW_CONNECTION", "SHOW_FUNCTIONS", "SHOW_INDEXES",
    "SHOW_SEQUENCES", "SHOW_MACROS", "SHOW_WARNINGS", "SHOW_LOADED_EXTENSIONS", "DB_VERSION",
    "QUERY_FTS_INDEX", "QUERY_VECTOR_INDEX",
})

_READ_ONLY = "graphmem runs read-only Cypher only"
_NUMBER = re.compile(r"(?:[0-9]*\.[0-9]+|[0-9]+)(?:[eE]-?[0-9]+)?")
_WORD = re.compile(r"[^\W\d]\w*")
_ASCII_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# The escapes the engines' string rule accepts; anything else makes their lexer stop.
_ESCAPE = re.compile(r"""[\\'"bBfFnNrRtT]|[uU][0-9A-Fa-f]{4}|[xX][0-9A-Fa-f]{2}""")


class Token(NamedTuple):
    """One lexical piece of a query: its kind, its exact text and where it starts."""

    kind: str  # space, comment, string, name, number, word or punct
    text: str
    start: int


def _refuse(reason: str) -> UnsafeQuery:
    return UnsafeQuery(f"refused: {reason}")


def _quoted_end(query: str, start: int) -> int:
    """Index just past the string literal opening at ``start``."""
    quote, i = query[start], start + 1
    while i < len(query):
        char = query[i]
        if char == quote:
            return i + 1
        if char == "\\":
            escape = _ESCAPE.match(query, i + 1)
            if escape is None:
                bad = query[i : i + 2]
                raise _refuse(f"the string at character {start} holds the escape {bad}, "
                              "which Cypher does not accept; write \\\\ for a backslash")
            i = escape.end()
        else:
            i += 1
    raise _refuse(f"the string opened at character {start} is never closed; close it")


def tokenize(query: str) -> list[Token]:
    """Cut ``query`` into tokens; raises UnsafeQuery on an unclosed string, name or comment."""
    tokens: list[Token] = []
    i, n = 0, len(query)
    while i < n:
        char = query[i]
        if query.startswith("//", i):
            end = min(j for j in (query.find("\n", i), query.find("\r", i), n) if j >= 0)
            kind = "comment"
        elif query.startswith("/*", i):
            close = query.find("*/", i + 2)
            if close < 0:
                raise _refuse(f"the comment opened at character {i} is never closed; close it")
            end, kind = close + 2, "comment"
        elif char in "'\"":
            end, kind = _quoted_end(query, i), "string"
        elif char == "`":
            close = query.find("`", i + 1)
            if close < 0:
                raise _refuse(f"the quoted name opened at character {i} is never closed")
            end, kind = close + 1, "name"
        elif char.isspace():
            end = i + 1
            while end < n and query[end].isspace():
                end += 1
            kind = "space"
        elif (number := _NUMBER.match(query, i)) is not None:
            end, kind = number.end(), "number"
        elif (word := _WORD.match(query, i)) is not None:
            end, kind = word.end(), "word"
        else:
            end, kind = i + 1, "punct"
        tokens.append(Token(kind, query[i:end], i))
        i = end
    return tokens


def _keys(word: str) -> set[str]:
    """Every spelling of ``word`` that could be a keyword: as written, NFKC-folded, ASCII parts."""
    keys = {word.upper(), unicodedata.normalize("NFKC", word).upper()}
    keys.update(part.upper() for part in _ASCII_WORD.findall(word))
    return keys


def _is_property(code: list[Token], at: int) -> bool:
    """True for a word written directly after a single '.': ``n.set`` is a property key."""
    if at == 0 or code[at - 1].text != "." or code[at - 1].start + 1 != code[at].start:
        return False
    return at < 2 or code[at - 2].text != "."


def _upper_word(token: Token | None) -> str:
    if token is None or token.kind != "word" or not token.text.isascii():
        return ""
    return token.text.upper()


def _check_words(code: list[Token]) -> None:
    for at, token in enumerate(code):
        if token.kind != "word" or _is_property(code, at):
            continue
        keys = _keys(token.text)
        if bad := sorted(keys & FORBIDDEN):
            raise _refuse(f"the query uses {bad[0]}; {_READ_ONLY}")
        if bad := sorted(keys & FORBIDDEN_FUNCTIONS):
            raise _refuse(f"the query calls {bad[0]}, which writes or reads outside the store; "
                          f"{_READ_ONLY}")


def _check_clause_starts(code: list[Token]) -> None:
    opening = "MATCH, OPTIONAL MATCH, UNWIND, WITH, RETURN or CALL"
    if _upper_word(code[0]) not in LEADING:
        raise _refuse(f"the query starts with {code[0].text!r}; {_READ_ONLY}: start it with "
                      f"{opening}")
    for at, token in enumerate(code):
        if _upper_word(token) != "UNION" or _is_property(code, at):
            continue
        following = code[at + 1 : at + 3]
        if following and _upper_word(following[0]) == "ALL":
            following = following[1:]
        if not following or _upper_word(following[0]) not in LEADING:
            raise _refuse(f"the query after UNION must start with {opening}; {_READ_ONLY}")


def _check_calls(code: list[Token]) -> None:
    for at, token in enumerate(code):
        if _upper_word(token) != "CALL" or _is_property(code, at):
            continue
        name = code[at + 1] if at + 1 < len(code) else None
        paren = code[at + 2] if at + 2 < len(code) else None
        if _upper_word(name) not in CALL_ALLOWED or paren is None or paren.text != "(":
            shown = f"CALL {name.text}" if name is not None else "a bare CALL"
            allowed = ", ".join(sorted(allowed.lower() for allowed in CALL_ALLOWED))
            raise _refuse(f"{shown} is not allowed; CALL may name only these read-only "
                          f"functions, with parentheses: {allowed}")


#: Clause keywords that end a RETURN or WITH projection.
_PROJECTION_ENDS = frozenset({"WITH", "RETURN", "MATCH", "OPTIONAL", "UNWIND", "CALL", "UNION", "WHERE",
                              "ORDER", "SKIP", "LIMIT"})
#: The engines' aggregate functions.
AGGREGATES = frozenset({"AVG", "COLLECT", "COUNT", "COUNT_STAR", "MAX", "MIN", "SUM"})
_OPENING, _CLOSING = "([{", ")]}"


def _name(token: Token) -> str:
    """A word or a backticked name as an upper-case identifier ('' for anything else)."""
    if token.kind == "name":
        return token.text[1:-1].upper()
    return _upper_word(token)


def _projections(code: list[Token]) -> list[list[Token]]:
    """The tokens of each RETURN or WITH projection, subqueries set apart.

    A projection runs from its RETURN or WITH to the next clause keyword at its own nesting depth
    (or the bracket that closes its depth); a ``{ ... }`` block inside it is a subquery or a map,
    whose own projections are found separately and whose tokens are not the outer one's.
    """
    found: list[list[Token]] = []
    open_at: list[list[Token] | None] = [None]  # per depth: the projection open there, if any
    depth = 0
    for at, token in enumerate(code):
        if token.kind == "punct" and token.text in _OPENING:
            depth += 1
            open_at.append(None)
            if token.text != "{":
                for projection in _open(open_at[:-1]):  # parentheses belong to the projection around
                    projection.append(token)
            continue
        if token.kind == "punct" and token.text in _CLOSING:
            depth = max(depth - 1, 0)
            open_at = open_at[:depth + 1] if len(open_at) > depth + 1 else open_at
            if token.text != "}":
                for projection in _open(open_at):
                    projection.append(token)
            continue
        word = "" if _is_property(code, at) else _upper_word(token)
        current = open_at[depth]
        if word in _PROJECTION_ENDS:
            current = open_at[depth] = [] if word in ("WITH", "RETURN") else None
            if current is not None:
                found.append(current)
        elif current is not None:
            current.append(token)
        else:
            for projection in _open(open_at):
                projection.append(token)
    return found


def _open(levels: list[list[Token] | None]) -> list[list[Token]]:
    """The innermost projection still open below a parenthesis, if any."""
    for projection in reversed(levels):
        if projection is not None:
            return [projection]
    return []


def _aggregates(tokens: list[Token]) -> list[tuple[str, bool]]:
    """Each aggregate call in ``tokens``: its function name and whether it is ``f(DISTINCT ...)``."""
    return [
        (_name(token), _upper_word(tokens[at + 2] if at + 2 < len(tokens) else None) == "DISTINCT")
        for at, token in enumerate(tokens)
        if _name(token) in AGGREGATES and at + 1 < len(tokens) and tokens[at + 1].text == "("
    ]


def _check_engine_quirks(code: list[Token], engine: str | None) -> None:
    """Refuse what kuzu 0.11.3 answers wrongly or dies on, in any one RETURN or WITH:

    - a plain aggregate after a DISTINCT one: it silently returns 0 or null for the later ones;
    - count(DISTINCT ...) beside a plain collect(...): it aborts its process (harmless now that
      queries run apart, but refused with the way round rather than reported as a crash).
    """
    if engine != "kuzu":
        return
    for projection in _projections(code):
        calls = _aggregates(projection)
        if ("COUNT", True) in calls and ("COLLECT", False) in calls:
            raise _refuse("kuzu crashes on count(DISTINCT ...) and collect(...) in one RETURN or "
                          "WITH; use collect(DISTINCT ...), or compute them in two WITH steps")
        seen_distinct = False
        for name, distinct in calls:
            if seen_distinct and not distinct:
                raise _refuse(f"kuzu answers {name.lower()}(...) wrongly (0 or null) when it follows a "
                              "DISTINCT aggregate in the same RETURN or WITH; put the plain aggregates "
                              "first, or compute them in two WITH steps")
            seen_distinct = seen_distinct or distinct


def ensure_read_only(query: str, engine: str | None = None) -> str:
    """Return ``query`` ready to run if it only reads the store; raise UnsafeQuery if not.

    The returned text is what must be executed: comments replaced by a space, one trailing
    semicolon removed, surrounding whitespace stripped. With ``engine``, queries known to crash
    that engine are refused too.

    >>> ensure_read_only("MATCH (n:Entity) WHERE n.name = 'create' RETURN n; // done")
    "MATCH (n:Entity) WHERE n.name = 'create' RETURN n"
    """
    if not isinstance(query, str):
        raise _refuse(f"the query must be text, not {type(query).__name__}")
    if "\x00" in query:
        raise _refuse("the query contains a NUL character; remove it")
    tokens = tokenize(query)
    code = [token for token in tokens if token.kind not in ("space", "comment")]
    end = len(tokens)
    if code and code[-1].text == ";":
        end = tokens.index(code[-1])
        code.pop()
    if not code:
        raise _refuse("the query is empty; give one read-only query, e.g. MATCH (n) RETURN n")
    _check_words(code)
    if any(token.text == ";" for token in code):
        raise _refuse("the query holds more than one statement (text follows a ';'); "
                      "run one statement at a time")
    _check_clause_starts(code)
    _check_calls(code)
    _check_engine_quirks(code, engine)
    return "".join(" " if t.kind == "comment" else t.text for t in tokens[:end]).strip()
