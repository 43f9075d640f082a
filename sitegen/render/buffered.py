"""Compiled templates that gather a page in a list instead of passing it up through generators.

Jinja compiles a template into generator functions that yield each piece of output, and a
page yields every piece of a block up through its parent's generator too: a paper page
yields about 330 times, an author page 530, each resumption paying for every level it
passes through. `buffer_output` rewrites the compiled module so that each top-level
function appends its pieces to a list (runs of adjacent pieces in one `extend`) and yields
once, the joined text, at its end. The functions are still generators with the same
output, so `Template.render`, blocks, `extends`, `include` and `super()` work unchanged;
nested functions (macros, `call` blocks, recursive loops) are left as Jinja wrote them.
A piece escaped for output is made a plain str (`escaping.text`) rather than a Markup,
which only the join would read: making, joining and freeing a Markup per piece was a
sixth of rendering a paper page and a third of an author page.
Streaming a page in pieces (`Template.generate`) becomes one piece, which nothing here uses.
"""

from __future__ import annotations

import ast
from types import CodeType
from typing import Any

import jinja2

from .escaping import TEXT_NAME, Template

_BUFFER, _APPEND, _EXTEND = "_sitegen_out", "_sitegen_append", "_sitegen_extend"
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def buffer_output(tree: ast.Module) -> ast.Module:
    """Rewrite each top-level generator function of a compiled template (see the module docstring)."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and _yields(node):
            node.body = _prologue(node) + _rewrite(node.body) + [_flush(node)]
    return tree


def _yields(function: ast.FunctionDef) -> bool:
    """Whether the function itself (not a function nested in it) yields."""
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(node, _NESTED):
            stack.extend(ast.iter_child_nodes(node))
    return False


def _rewrite(body: list[ast.stmt]) -> list[ast.stmt]:
    """A statement list with each run of `yield x` / `yield from g` statements made one call."""
    out: list[ast.stmt] = []
    run: list[ast.expr] = []  # values of the current run; a `yield from` value is starred
    first: ast.stmt | None = None

    def close() -> None:
        nonlocal run, first
        if run:
            assert first is not None
            out.append(_collect(run, first))
        run, first = [], None

    for statement in body:
        value = statement.value if isinstance(statement, ast.Expr) else None
        if isinstance(value, ast.Yield):
            first = first or statement
            run.append(_as_text(value.value) if value.value is not None else ast.Constant(""))
            continue
        if isinstance(value, ast.YieldFrom):
            first = first or statement
            run.append(ast.Starred(value.value, ast.Load()))
            continue
        close()
        if isinstance(statement, ast.Return):  # none in Jinja's top-level functions; kept right if one appears
            out += [_flush(statement), statement]
            continue
        if not isinstance(statement, _NESTED):
            for field in ("body", "orelse", "finalbody"):
                block = getattr(statement, field, None)
                if isinstance(block, list) and block:
                    setattr(statement, field, _rewrite(block) or [ast.Pass()])
            for handler in getattr(statement, "handlers", ()):
                handler.body = _rewrite(handler.body) or [ast.Pass()]
        out.append(statement)
    close()
    return out


def _as_text(piece: ast.expr) -> ast.expr:
    """`escape(x)` as a piece of output becomes `text(x)`: the same characters as a str, not a
    Markup, which only the join would read (see escaping.text)."""
    if (isinstance(piece, ast.Call) and isinstance(piece.func, ast.Name) and piece.func.id == "escape"
            and len(piece.args) == 1 and not piece.keywords):
        piece.func = ast.copy_location(ast.Name(TEXT_NAME, ast.Load()), piece.func)
    return piece


def _collect(values: list[ast.expr], at: ast.stmt) -> ast.stmt:
    """`append(x)` for one piece, else `extend((x, *g, y))`: pieces are evaluated in order, as before."""
    if len(values) == 1 and not isinstance(values[0], ast.Starred):
        call = ast.Call(ast.Name(_APPEND, ast.Load()), [values[0]], [])
    elif len(values) == 1:
        starred = values[0]
        assert isinstance(starred, ast.Starred)
        call = ast.Call(ast.Name(_EXTEND, ast.Load()), [starred.value], [])
    else:
        call = ast.Call(ast.Name(_EXTEND, ast.Load()), [ast.Tuple(values, ast.Load())], [])
    return _located(ast.Expr(call), at)


def _located(new: ast.stmt, at: ast.AST) -> ast.stmt:
    """`new` with `at`'s place in the source on each node made here; Jinja's nodes keep their own.

    (ast.fix_missing_locations walks the whole module: half the cost of compiling a template.)
    """
    stack: list[ast.AST] = [new]
    while stack:
        node = stack.pop()
        if "lineno" not in node._attributes or hasattr(node, "lineno"):
            continue
        ast.copy_location(node, at)
        stack.extend(ast.iter_child_nodes(node))
    return new


def _prologue(at: ast.AST) -> list[ast.stmt]:
    """`out = []`, then its `append` and `extend` in locals."""
    def bind(name: str, value: ast.expr) -> ast.stmt:
        return _located(ast.Assign([ast.Name(name, ast.Store())], value), at)

    def method(name: str) -> ast.expr:
        return ast.Attribute(ast.Name(_BUFFER, ast.Load()), name, ast.Load())

    return [bind(_BUFFER, ast.List([], ast.Load())), bind(_APPEND, method("append")), bind(_EXTEND, method("extend"))]


def _flush(at: ast.AST) -> ast.stmt:
    """`yield ''.join(buffer)`: the function's whole output as one piece."""
    join = ast.Call(ast.Attribute(ast.Constant(""), "join", ast.Load()), [ast.Name(_BUFFER, ast.Load())], [])
    return _located(ast.Expr(ast.Yield(join)), at)


class Environment(jinja2.Environment):
    """A Jinja environment whose templates buffer their output and escape in one call (see escaping)."""

    template_class = Template

    def _compile(self, source: str, filename: str) -> CodeType:
        if self.is_async:  # async templates yield to an event loop: left as they are
            return super()._compile(source, filename)
        try:
            tree: Any = buffer_output(ast.parse(source, filename))
        except (SystemError, RecursionError):
            # CPython 3.11's ast.parse can raise a spurious SystemError ("AST constructor
            # recursion depth mismatch", python/cpython#106905) when anything else failed while
            # it ran; the template is then compiled as Jinja compiles it, with the same output
            return super()._compile(source, filename)
        return compile(tree, filename, "exec")


__all__ = ["Environment", "buffer_output"]
