"""Site memory in Redis (WHATWG_ENCODING_REMEMBER_STORE = "redis://…"), against a real redis-server
started here (skipped where it is not installed): every process of a fleet shares one memory."""
from __future__ import annotations

import json
import subprocess
import sys
from contextlib import ExitStack

from whatwg_crawl_helpers import REPO, load_manifest, serve_in_process

from scrapy_whatwg_encoding import sniff
from scrapy_whatwg_encoding.scrapy.memory.redis import REDIS_PREFIX, RedisStore

sys.path.insert(0, str(REPO / "tools"))
from remember_accuracy import consistent_sites, write_site

HERE = REPO / "tests" / "scrapy"


def test_redis_store_adds_across_clients(redis_url):
    """Two clients (two processes' stores) add to one count; nothing is lost between them."""
    first, second = RedisStore(redis_url), RedisStore(redis_url)
    first.exchange([("1", {"shared.example": {"KOI8-R": 2}})], ())
    assert second.exchange([("2", {"shared.example": {"KOI8-R": 1, "UTF-8": 1}})], ["shared.example", "nobody.example"]) == {
        "shared.example": {"KOI8-R": 3, "UTF-8": 1}}  # a host absent from the store is absent from the answer
    # A batch sent again (its answer timed out after Redis had added it) is not added twice.
    assert first.exchange([("2", {"shared.example": {"KOI8-R": 1}})], ["shared.example"]) == {
        "shared.example": {"KOI8-R": 3, "UTF-8": 1}}
    first.close()
    second.close()


def _fleet(redis_url: str, *url_lists: list[str]) -> list[dict]:
    """One crawler process per URL list, all at once, sharing *redis_url*; their JSON outputs."""
    processes = [subprocess.Popen([sys.executable, str(HERE / "fleet_crawl.py"), redis_url, *urls],
                                  cwd=HERE, stdout=subprocess.PIPE, text=True) for urls in url_lists]
    outputs = [process.communicate(timeout=300)[0] for process in processes]
    assert [process.returncode for process in processes] == [0] * len(processes)
    return [json.loads(output.strip().splitlines()[-1]) for output in outputs]


def test_two_crawler_processes_learn_from_each_other(redis_url, tmp_path):
    """Two hosts of consistent legacy sites (KOI8-R; ISO-8859-7), half of their pages labeled and
    half stripped. Round 1, at once: process A crawls the labeled pages of the KOI8-R host, B those
    of the ISO-8859-7 host. Round 2, at once: A crawls the stripped ISO-8859-7 pages, which only B
    has seen, and B the stripped KOI8-R pages, which only A has seen: each decides them with what
    the other learned (the detector alone says windows-1253 and KOI8-U)."""
    sites = consistent_sites(load_manifest())
    labeled, stripped, truth, bodies = {}, {}, {}, {}
    with ExitStack() as stack:
        for name in ("KOI8-R", "ISO-8859-7"):
            write_site(sites[name], tmp_path / name)
            base = serve_in_process(tmp_path / name, stack)
            for path, body, content_type, _ in sites[name]:
                url = base + path
                (labeled if "charset" in content_type else stripped).setdefault(name, []).append(url)
                truth[url], bodies[url] = name, body
        first = _fleet(redis_url, labeled["KOI8-R"], labeled["ISO-8859-7"])
        second = _fleet(redis_url, stripped["ISO-8859-7"], stripped["KOI8-R"])
    for run in first:
        assert all(d["source"] == "transport" for d in run["decisions"].values())
    import redis

    client = redis.Redis.from_url(redis_url)
    for name in ("KOI8-R", "ISO-8859-7"):
        host = labeled[name][0].split("/")[2]
        assert client.hgetall(REDIS_PREFIX + host) == {name.encode(): str(len(labeled[name])).encode()}
    client.close()
    for run, name in zip(second, ("ISO-8859-7", "KOI8-R")):
        assert len(run["decisions"]) == len(stripped[name])
        for url, decision in run["decisions"].items():
            assert decision["encoding"] == name, url
            alone = sniff(bodies[url], content_type="text/html", url=url)
            if alone.encoding.name != name:  # what the other process learned made the difference
                assert decision["source"] == "likely", url
        assert run["stats"]["whatwg_encoding/memory/applied"] >= 1
        assert "whatwg_encoding/memory/store_errors" not in run["stats"]
