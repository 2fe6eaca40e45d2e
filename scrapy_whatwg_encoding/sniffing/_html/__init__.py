"""Private HTML tokenizer and DOM-less tree builder pieces (HTML §13.2.5, §13.2.6) used by the
parser step (``sniffing/parser_scan.py``). Nothing here is public API."""
