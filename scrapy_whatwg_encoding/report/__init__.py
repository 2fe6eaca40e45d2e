"""The HTML report of a crawl or an audit (issue 13): bounded counters gathered page by page
(:class:`ReportData`) and a renderer to one self-contained, script-free HTML file
(:func:`render_html`); :func:`render_explain_html` shows one page's steps. Imports only the
encoding and sniffing layers (none of Scrapy), so both the Scrapy layer and the CLI use it."""
from .explain import render_explain_html
from .model import Example, Passage, ReportData, first_difference
from .render import render_html

__all__ = ["Example", "Passage", "ReportData", "first_difference", "render_explain_html", "render_html"]
