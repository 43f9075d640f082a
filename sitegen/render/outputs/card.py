"""The site's social card: the picture a shared link shows (og:image, twitter:image), drawn at build time.

One PNG for the whole site, 1200 × 630 (the size Facebook, LinkedIn and X crop to), made with
Pillow from the settings alone: the title, the description and the site's address, in the
theme's colours, with the font Pillow carries (Aileron), so no font file of the machine is read
and the same settings give the same bytes. That font has ASCII and little more: text is
transliterated to it ('Łukasz' → 'Lukasz', '—' → '--') rather than shown as empty boxes.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ...content.config import SiteConfig

if TYPE_CHECKING:
    from PIL import ImageDraw

SIZE = (1200, 630)
MARGIN = 80
ACCENT, WHITE, SOFT, FAINT = "#1f5fbf", "#ffffff", "#e8f0fb", "#b9cdec"  # style.css's --accent and its tints


@lru_cache(maxsize=8)
def _font(size: int) -> Any:
    from PIL import ImageFont  # Pillow is imported only to draw the card: a build that does not is 50 ms quicker

    return ImageFont.load_default(size)


def _lines(text: str, font: Any, width: int, most: int) -> list[str]:
    """`text` wrapped to lines at most `width` pixels wide; the last of `most` lines ends in '...' if cut."""
    from text_unidecode import unidecode

    lines: list[str] = []
    for word in unidecode(" ".join(text.split())).split():
        if lines and font.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    if len(lines) > most:
        last = lines[most - 1]
        while last and font.getlength(last + " ...") > width:
            last = last.rsplit(" ", 1)[0] if " " in last else last[:-1]
        lines = [*lines[: most - 1], last + " ..."]
    return lines


def _mark(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The favicon's page, drawn at 3×: a white sheet with a folded corner and three lines of text."""
    draw.polygon([(x, y), (x + 30, y), (x + 42, y + 12), (x + 42, y + 48), (x, y + 48)], fill=WHITE)
    for dy, length in ((21, 24), (30, 24), (39, 15)):
        draw.line([(x + 9, y + dy), (x + 9 + length, y + dy)], fill=ACCENT, width=5)


def social_card(config: SiteConfig) -> bytes:
    """The card of a site with these settings, as PNG bytes."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", SIZE, ACCENT)
    draw = ImageDraw.Draw(image)
    width = SIZE[0] - 2 * MARGIN
    _mark(draw, MARGIN, MARGIN)
    y = MARGIN + 90
    title = _font(68)
    titled = _lines(config.title, title, width, 3)
    for line in titled:
        draw.text((MARGIN, y), line, font=title, fill=WHITE)
        y += 82
    address = SIZE[1] - MARGIN - 30
    room = (address - 20 - (y + 14)) // 46  # the description's lines that fit above the address
    description = _font(34)
    for line in _lines(config.description, description, width, room) if room > 0 else ():
        draw.text((MARGIN, y + 14), line, font=description, fill=SOFT)
        y += 46
    parts = urlsplit(config.base_url)
    draw.text((MARGIN, address), (parts.netloc + parts.path).rstrip("/"), font=_font(30), fill=FAINT)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()
