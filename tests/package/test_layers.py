"""No import climbs the layers (docs/design.rst: encoding < sniffing < scrapy < cli, and report/
beside them, importing none), none circles within a layer, and no module imports another's private
name: every module of the package is parsed and each of its imports — at the top or inside a
function — resolved to a module name; the ``scrapy sniff`` command lives in cli/ and is registered
from there."""
from __future__ import annotations

import ast
import importlib.metadata
import pathlib

import pytest

import scrapy_whatwg_encoding

PACKAGE = pathlib.Path(scrapy_whatwg_encoding.__file__).resolve().parent
NAME = "scrapy_whatwg_encoding"
# Layer → the imports it must not make (modules of this package by dotted prefix, and Scrapy itself).
FORBIDDEN = {
    "encoding": (f"{NAME}.sniffing", f"{NAME}.scrapy", f"{NAME}.cli", "scrapy"),
    "sniffing": (f"{NAME}.scrapy", f"{NAME}.cli", "scrapy"),
    "scrapy": (f"{NAME}.cli",),
    # The HTML report's model and rendering: plain data in, HTML out.
    "report": (f"{NAME}.encoding", f"{NAME}.sniffing", f"{NAME}.scrapy", f"{NAME}.cli", "scrapy"),
}


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: pathlib.Path) -> set[str]:
    """Absolute names of every module *path* imports (``from x import y`` also names ``x.y``, which
    may be a module)."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            found.add(origin)
            found.update(f"{origin}.{alias.name}" for alias in node.names)
    return found


def climbs(name: str, forbidden: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in forbidden)


def test_import_resolution():
    # The resolution itself, on modules whose imports are known.
    assert f"{NAME}.encoding" in imports(PACKAGE / "sniffing" / "sniff.py")
    assert f"{NAME}.sniffing.content_type.document_kind" in imports(PACKAGE / "cli" / "kind.py")
    assert f"{NAME}.scrapy.settings" in imports(PACKAGE / "cli" / "scrapy_command.py")
    assert "scrapy.commands" in imports(PACKAGE / "cli" / "scrapy_command.py")
    assert climbs("scrapy.http", ("scrapy",)) and not climbs("scrapy_whatwg_encoding.scrapy", ("scrapy",))


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_import_climbs_the_layers(layer):
    modules = sorted((PACKAGE / layer).rglob("*.py"))
    assert modules
    wrong = {f"{module_name(path)} imports {name}" for path in modules for name in imports(path)
             if climbs(name, FORBIDDEN[layer])}
    assert not wrong, sorted(wrong)


def test_scrapy_command_lives_in_cli():
    assert not (PACKAGE / "scrapy" / "commands").exists()
    (entry,) = [e for e in importlib.metadata.entry_points(group="scrapy.commands") if e.name == "sniff"]
    assert entry.value == f"{NAME}.cli.scrapy_command:Command"
    from scrapy.commands import ScrapyCommand

    assert issubclass(entry.load(), ScrapyCommand)



MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def _imported(path: pathlib.Path):
    """``(module, name)`` for each name *path* imports from the package's modules (``from . import
    body`` names the module ``body``: ``(that module, None)``); ``import x.y`` gives ``(x.y, None)``."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            yield from ((alias.name, None) for alias in node.names if alias.name in MODULES)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            origin = (".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
                      if node.level else node.module or "")
            for alias in node.names:
                if f"{origin}.{alias.name}" in MODULES:
                    yield f"{origin}.{alias.name}", None
                elif origin in MODULES:
                    yield origin, alias.name


def _edges() -> dict[str, set[str]]:
    """Module → the package's modules it imports."""
    return {name: {module for module, _ in _imported(path)} - {name} for name, path in MODULES.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in edges.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_cycles_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles():
    assert cycles(_edges()) == []


def test_no_private_name_is_imported_from_another_module():
    wrong = [f"{name} imports {module}.{imported}" for name, path in MODULES.items()
             for module, imported in _imported(path)
             if imported is not None and imported.startswith("_") and not imported.startswith("__")]
    assert wrong == [], wrong
