"""No import climbs the layers (DESIGN: encoding < sniffing < scrapy < cli): every module of the
package is parsed and each of its imports — at the top or inside a function — resolved to a
module name; the ``scrapy sniff`` command lives in cli/ and is registered from there."""
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

