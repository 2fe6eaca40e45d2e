"""Scrapy commands of this package, registered through the ``scrapy.commands`` entry point
(``pyproject.toml``): ``scrapy sniff URL`` (:mod:`.sniff`)."""
