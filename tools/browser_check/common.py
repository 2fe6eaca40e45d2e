"""What the compare_*.py scripts share: their command line and the per-encoding tally."""
import json
import pathlib
import sys


def run(main, defaults):
    """``main(*positional, report=PATH or None)`` from ``sys.argv`` (``--json REPORT`` anywhere);
    exits with its return value."""
    args = sys.argv[1:]
    report = None
    if "--json" in args:
        i = args.index("--json")
        report = args[i + 1]
        del args[i:i + 2]
    sys.exit(main(*(args or defaults), report=report))


def case_files(case_dir, ff_dir, summary):
    """``(case document, Firefox's result document)`` for each case file that has Firefox results;
    a missing result file is noted in *summary* and printed."""
    for case_file in sorted(pathlib.Path(case_dir).glob("*.json")):
        doc = json.loads(case_file.read_text())
        ff_file = pathlib.Path(ff_dir) / case_file.name
        if not ff_file.exists():
            print(f"{doc['encoding']}: NO FIREFOX RESULTS")
            summary[doc["encoding"]] = {"compared": 0, "error": "no firefox results"}
            continue
        yield doc, json.loads(ff_file.read_text())


def tally(name, pairs, ours_of, shown=str):
    """Compare each ``(input, firefox's result)`` of *pairs* with ``ours_of(input)`` (an exception
    counts as a mismatch); print the count and the first mismatches. Returns the summary entry."""
    mismatches, compared = [], 0
    for item, theirs in pairs:
        compared += 1
        try:
            ours = ours_of(item)
        except Exception as e:  # noqa: BLE001 — any exception is a mismatch to report, not a stop
            ours = f"EXCEPTION {type(e).__name__}: {e}"
        if ours != theirs:
            mismatches.append({"input": shown(item), "firefox": theirs, "ours": ours})
    print(f"{name:15} compared {compared:7d}  mismatches {len(mismatches)}")
    for m in mismatches[:5]:
        print(f"    input {m['input']}  firefox [{m['firefox']}]  ours [{m['ours']}]")
    return {"compared": compared, "mismatches": len(mismatches), "examples": mismatches[:10]}


def finish(summary, report):
    """Print the totals, write the JSON report; 1 if anything mismatched."""
    total = sum(entry.get("compared", 0) for entry in summary.values())
    bad = sum(entry.get("mismatches", 0) for entry in summary.values())
    print(f"TOTAL compared {total}, mismatches {bad}")
    if report:
        pathlib.Path(report).write_text(json.dumps(summary, indent=1))
    return 1 if bad else 0
