"""The picture of a table: :func:`draw_table` paints a :class:`~pirate_envs.drawing.table.TableView` with Pillow.

One generic renderer serves every game: the header (title, whose turn, the result), a side panel
(the players' lines, the last action, the decision and the viewer's options, the glossary) and the
zones as titled boxes packed in rows, their cards as rounded rectangles coloured by ``kind``
(face-down cards as card backs, highlighted cards with a gold edge). The image size is fixed by
the caller (default 1280x720, a video size), never by the content: content that does not fit is
drawn smaller, then cut, so every frame of a game has the same shape (``RecordVideo`` needs it).
Text uses Pillow's built-in font (no font file needed). Nothing here imports gymnasium or pettingzoo.
"""

from __future__ import annotations

import math
import unicodedata
import zlib
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from pirate_envs.drawing.table import Card, TableView, Zone

DEFAULT_SIZE = (1280, 720)
BACKGROUND = (22, 74, 70)  # the green baize of a card table
PANEL = (16, 52, 50)
ZONE_FILL = (30, 96, 90)
ZONE_EDGE = (120, 170, 160)
TEXT = (236, 240, 232)
DIM_TEXT = (170, 196, 188)
GOLD = (246, 196, 64)
RESULT = (255, 140, 110)
CARD_BACK = (38, 44, 92)
CARD_BACK_PATTERN = (92, 104, 170)
# Card faces: light colours (dark text stays readable); a kind always gets the same colour.
PALETTE = (
    (240, 200, 200),
    (200, 220, 245),
    (210, 236, 200),
    (245, 230, 180),
    (225, 205, 240),
    (190, 232, 228),
    (245, 212, 180),
    (222, 222, 222),
    (236, 190, 220),
    (200, 200, 160),
    (180, 210, 190),
    (250, 244, 210),
    (206, 190, 170),
    (176, 200, 236),
)
# A kind that names a colour ("Blue", "junk red") is drawn in that colour, as the arena's SVG does;
# any other kind (a suit, a nation, a role) gets a steady pick from the palette.
NAMED_COLOURS = {
    "red": (240, 180, 180),
    "orange": (246, 206, 160),
    "gold": (246, 226, 150),
    "yellow": (246, 240, 160),
    "green": (196, 232, 190),
    "blue": (180, 204, 246),
    "purple": (220, 196, 240),
    "pink": (240, 196, 220),
    "white": (246, 244, 238),
    "black": (170, 174, 184),
}
BLANK_CARD = (236, 232, 220)

HEADER_H = 48
SIDE_W = 340
MARGIN = 8
CARD_W, CARD_H = 96, 60
GAP = 6
ZONE_PAD = 6
SCALES = (1.0, 0.88, 0.76, 0.66, 0.57, 0.5)


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in font at ``size`` pixels (a bitmap font where FreeType is missing)."""
    return ImageFont.load_default(size=size)


def kind_colour(kind: str) -> tuple[int, int, int]:
    """The face colour of a card kind: the colour it names, else a stable pick from the palette."""
    key = kind.lower()
    if not key:
        return BLANK_CARD
    for word in key.split():
        if word in NAMED_COLOURS:
            return NAMED_COLOURS[word]
    return PALETTE[zlib.crc32(key.encode()) % len(PALETTE)]


def plain(text: str) -> str:
    """``text`` without accents (Pillow's built-in font draws ASCII only): "Cortés" -> "Cortes"."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if ch.isascii() or ch in "…·")


def text_width(text: str, size: int) -> float:
    return font(size).getlength(text)


def fit_line(text: str, width: float, size: int) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    text = plain(text)
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def wrap(text: str, width: float, size: int, max_lines: int) -> list[str]:
    """Word-wrap ``text`` into at most ``max_lines`` lines of ``width`` pixels (the last one cut)."""
    lines: list[str] = []
    for paragraph in plain(text).split("\n"):
        words = paragraph.split()
        line = ""
        for word in words:
            candidate = f"{line} {word}" if line else word
            if text_width(candidate, size) <= width or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = fit_line(lines[-1] + " …", width, size)
    return [fit_line(line, width, size) for line in lines]


def draw_card(draw: ImageDraw.ImageDraw, card: Card, x: float, y: float, w: float, h: float) -> None:
    """One card at (x, y): a face with its label, or a card back."""
    radius = max(3, int(min(w, h) * 0.12))
    box = (x, y, x + w, y + h)
    if card.hidden:
        draw.rounded_rectangle(box, radius=radius, fill=CARD_BACK, outline=CARD_BACK_PATTERN, width=1)
        inset = max(3, int(min(w, h) * 0.12))
        draw.rounded_rectangle(
            (x + inset, y + inset, x + w - inset, y + h - inset), radius=max(2, radius // 2), outline=CARD_BACK_PATTERN
        )
        step = max(6, int(h / 4))
        for offset in range(0, int(w + h), step):
            x0, y0 = x + inset + offset, y + inset
            x1, y1 = x + inset + offset - (h - 2 * inset), y + h - inset
            if x1 < x + inset:
                y1 -= (x + inset) - x1
                x1 = x + inset
            if x0 > x + w - inset:
                y0 += x0 - (x + w - inset)
                x0 = x + w - inset
            if y0 < y1:
                draw.line((x0, y0, x1, y1), fill=CARD_BACK_PATTERN, width=1)
    else:
        draw.rounded_rectangle(box, radius=radius, fill=kind_colour(card.kind), outline=(60, 60, 60), width=1)
        size = max(9, int(h * 0.2))
        lines = wrap(card.label, w - 6, size, max(1, int((h - 4) // (size + 2))))
        ty = y + (h - len(lines) * (size + 2)) / 2
        for line in lines:
            draw.text((x + w / 2, ty), line, fill=(20, 20, 20), font=font(size), anchor="ma")
            ty += size + 2
    if card.highlight:
        draw.rounded_rectangle(box, radius=radius, outline=GOLD, width=3)


def _zone_layout(zone: Zone, max_w: float, cw: float, ch: float, title_size: int) -> tuple[float, float, int]:
    """Width, height and cards per row of a zone's box."""
    per_row_max = max(1, int((max_w - 2 * ZONE_PAD + GAP) // (cw + GAP)))
    count = len(zone.cards)
    per_row = max(1, min(count, per_row_max))
    rows = math.ceil(count / per_row) if count else 0
    title_w = text_width(zone.title, title_size) + 2 * ZONE_PAD
    note_w = text_width(zone.note, title_size - 2) + 2 * ZONE_PAD if zone.note else 0
    cards_w = per_row * (cw + GAP) - GAP + 2 * ZONE_PAD if count else 0
    width = min(max_w, max(title_w, note_w, cards_w, 80))
    head = title_size + 6 + (title_size + 2 if zone.note else 0)
    height = head + (rows * (ch + GAP) if rows else 0) + ZONE_PAD
    return width, height, per_row


def _pack(
    zones: tuple[Zone, ...], area_w: float, scale: float
) -> tuple[list[tuple[float, float, float, float, int]], float]:
    """Shelf packing of the zone boxes: (x, y, w, h, per_row) per zone, and the total height."""
    cw, ch = CARD_W * scale, CARD_H * scale
    title_size = max(10, int(14 * scale))
    placed = []
    x = y = shelf_h = 0.0
    for zone in zones:
        w, h, per_row = _zone_layout(zone, area_w, cw, ch, title_size)
        if x > 0 and x + w > area_w:
            x, y, shelf_h = 0.0, y + shelf_h + GAP, 0.0
        placed.append((x, y, w, h, per_row))
        x += w + GAP
        shelf_h = max(shelf_h, h)
    return placed, y + shelf_h


def draw_zones(draw: ImageDraw.ImageDraw, zones: tuple[Zone, ...], left: float, top: float, w: float, h: float) -> None:
    """The zones packed into the box (left, top, w, h), drawn smaller until they fit, else cut."""
    scale = SCALES[-1]
    for candidate in SCALES:
        placed, total = _pack(zones, w, candidate)
        if total <= h:
            scale = candidate
            break
    placed, _ = _pack(zones, w, scale)
    cw, ch = CARD_W * scale, CARD_H * scale
    title_size = max(10, int(14 * scale))
    for zone, (zx, zy, zw, zh, per_row) in zip(zones, placed, strict=True):
        x0, y0 = left + zx, top + zy
        if y0 >= top + h:
            break
        bottom = min(y0 + zh, top + h)
        draw.rounded_rectangle((x0, y0, x0 + zw, bottom), radius=6, fill=ZONE_FILL, outline=ZONE_EDGE)
        draw.text(
            (x0 + ZONE_PAD, y0 + 3),
            fit_line(zone.title, zw - 2 * ZONE_PAD, title_size),
            fill=TEXT,
            font=font(title_size),
        )
        cy = y0 + title_size + 6
        if zone.note:
            note_size = title_size - 2
            draw.text(
                (x0 + ZONE_PAD, cy - 2),
                fit_line(zone.note, zw - 2 * ZONE_PAD, note_size),
                fill=DIM_TEXT,
                font=font(note_size),
            )
            cy += title_size + 2
        for i, card in enumerate(zone.cards):
            row, col = divmod(i, per_row)
            cx, cyy = x0 + ZONE_PAD + col * (cw + GAP), cy + row * (ch + GAP)
            if cyy + ch > top + h:
                break
            draw_card(draw, card, cx, cyy, cw, ch)


def _panel_section(
    draw: ImageDraw.ImageDraw,
    title: str,
    lines: list[str],
    x: float,
    y: float,
    w: float,
    bottom: float,
    size: int = 12,
    colour: tuple[int, int, int] = TEXT,
) -> float:
    """A titled block of wrapped lines in the side panel; returns the next free y."""
    if y + 2 * (size + 3) > bottom or not lines:
        return y
    draw.text((x, y), title, fill=GOLD, font=font(size + 1))
    y += size + 5
    for line in lines:
        for part in wrap(line, w, size, 3):
            if y + size + 3 > bottom:
                return y
            draw.text((x, y), part, fill=colour, font=font(size))
            y += size + 3
    return y + 6


def draw_table(view: TableView, width: int = DEFAULT_SIZE[0], height: int = DEFAULT_SIZE[1]) -> np.ndarray:
    """The picture of ``view`` as an ``(height, width, 3)`` uint8 array (the same shape for every view)."""
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    # header: title, status / result, who is looking
    draw.rectangle((0, 0, width, HEADER_H), fill=PANEL)
    who = "spectator" if view.viewer is None else f"player_{view.viewer}'s view"
    draw.text((MARGIN, 5), fit_line(f"{view.title}  ·  {who}", width - 2 * MARGIN, 17), fill=TEXT, font=font(17))
    status = view.result or view.status
    draw.text(
        (MARGIN, 27), fit_line(status, width - 2 * MARGIN, 14), fill=RESULT if view.result else GOLD, font=font(14)
    )
    # side panel
    side_w = min(SIDE_W, width // 3)
    draw.rectangle((0, HEADER_H, side_w, height), fill=PANEL)
    x, y, inner = MARGIN, HEADER_H + MARGIN, side_w - 2 * MARGIN
    bottom = height - MARGIN
    y = _panel_section(draw, "Players", list(view.players), x, y, inner, bottom)
    y = _panel_section(draw, "Last action", [view.last_action] if view.last_action else [], x, y, inner, bottom)
    y = _panel_section(draw, "Decision", [view.decision_help] if view.decision_help else [], x, y, inner, bottom)
    if view.legal:
        shown = [a.label for a in view.legal[:8]]
        if len(view.legal) > 8:
            shown.append(f"… {len(view.legal)} options in all")
        y = _panel_section(draw, "Your options", shown, x, y, inner, bottom, size=11, colour=DIM_TEXT)
    if view.glossary:
        lines = [f"{code}: {meaning}" for code, meaning in view.glossary]
        _panel_section(draw, "Glossary", lines, x, y, inner, bottom, size=11, colour=DIM_TEXT)
    # zones
    left = side_w + MARGIN
    draw_zones(draw, view.zones, left, HEADER_H + MARGIN, width - left - MARGIN, height - HEADER_H - 2 * MARGIN)
    return np.array(image, dtype=np.uint8)
