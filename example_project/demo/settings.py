"""Settings of the demo project: the add-on is all it takes."""
BOT_NAME = "demo"
SPIDER_MODULES = ["demo.spiders"]
NEWSPIDER_MODULE = "demo.spiders"

ADDONS = {"scrapy_whatwg_encoding.Addon": 0}
# One INFO line per encoding decision, so the decision log shows without Scrapy's DEBUG noise.
WHATWG_ENCODING_LOG_LEVEL = "INFO"
LOG_LEVEL = "INFO"

FEEDS = {"items.jsonl": {"format": "jsonlines", "overwrite": True, "encoding": "utf-8"}}
ROBOTSTXT_OBEY = False
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False
CONCURRENT_REQUESTS = 16
