#!/usr/bin/env python3
"""Writes seed-recipes.plist: the Recipes seed, a dozen recipes with their
types, ordered ingredients, and a thumbnail and a photo each, drawn here and
encoded by the small baseline JPEG encoder below (Python's standard library
only; nothing is copied from anywhere). Deterministic: the same bytes every
run, so the committed file can be checked against this script.

    python3 Samples/Recipes/make-seed.py            # rewrites the plist
    python3 Samples/Recipes/make-seed.py --check    # exits 1 if it differs
"""
import math
import plistlib
import sys
from pathlib import Path

# --- A baseline JPEG encoder (ITU T.81): 8-bit YCbCr 4:4:4, one scan. -------

ZIGZAG = [
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
    12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
    58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
]
# The example tables of T.81 Annex K.1, at quality 50 (divisors by position).
LUMA_Q = [
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
    14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
    18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
]
CHROMA_Q = [17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
            24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99] + [99] * 32


def scaled(table, quality):
    """The table for a quality from 1 to 100, as libjpeg scales it."""
    factor = 5000 // quality if quality < 50 else 200 - 2 * quality
    return [min(255, max(1, (q * factor + 50) // 100)) for q in table]


# Huffman tables: every symbol a code of one fixed length, which is valid
# (no code is all ones) and needs no frequency counting. DC symbols are the
# sizes 0-11; AC symbols are run/size pairs, end-of-block and the 16-zero run.
DC_SYMBOLS = list(range(12))
AC_SYMBOLS = [0x00, 0xF0] + [(run << 4) | size for run in range(16) for size in range(1, 11)]
DC_LENGTH, AC_LENGTH = 4, 8


def codes(symbols, length):
    return {symbol: (index, length) for index, symbol in enumerate(symbols)}


DC_CODES, AC_CODES = codes(DC_SYMBOLS, DC_LENGTH), codes(AC_SYMBOLS, AC_LENGTH)

COSINES = [[math.cos((2 * x + 1) * u * math.pi / 16) for x in range(8)] for u in range(8)]


def dct(block):
    """The 8x8 forward DCT of 64 level-shifted samples, row by row."""
    out = [0.0] * 64
    for v in range(8):
        for u in range(8):
            total = 0.0
            for y in range(8):
                row = COSINES[v][y]
                for x in range(8):
                    total += block[y * 8 + x] * COSINES[u][x] * row
            cu = math.sqrt(0.5) if u == 0 else 1.0
            cv = math.sqrt(0.5) if v == 0 else 1.0
            out[v * 8 + u] = 0.25 * cu * cv * total
    return out


class BitWriter:
    def __init__(self):
        self.bytes = bytearray()
        self.buffer = 0
        self.count = 0

    def write(self, value, length):
        for shift in range(length - 1, -1, -1):
            self.buffer = (self.buffer << 1) | ((value >> shift) & 1)
            self.count += 1
            if self.count == 8:
                self.bytes.append(self.buffer)
                if self.buffer == 0xFF:
                    self.bytes.append(0x00)  # Byte stuffing.
                self.buffer = 0
                self.count = 0

    def flush(self):
        if self.count:
            self.write((1 << (8 - self.count)) - 1, 8 - self.count)  # Pad with ones.


def magnitude(value):
    """The size category of a coefficient and its bits (T.81 F.1.2.1)."""
    size = abs(value).bit_length()
    bits = value if value >= 0 else value + (1 << size) - 1
    return size, bits


def encode_block(writer, coefficients, previous_dc, dc_codes, ac_codes):
    diff = coefficients[0] - previous_dc
    size, bits = magnitude(diff)
    writer.write(*dc_codes[size])
    if size:
        writer.write(bits, size)
    run = 0
    for k in range(1, 64):
        value = coefficients[k]
        if value == 0:
            run += 1
            continue
        while run > 15:
            writer.write(*ac_codes[0xF0])
            run -= 16
        size, bits = magnitude(value)
        writer.write(*ac_codes[(run << 4) | size])
        writer.write(bits, size)
        run = 0
    if run:
        writer.write(*ac_codes[0x00])
    return coefficients[0]


def segment(marker, payload):
    return bytes([0xFF, marker]) + (len(payload) + 2).to_bytes(2, "big") + payload


def huffman_table(table_class, table_id, symbols, length):
    counts = [0] * 16
    counts[length - 1] = len(symbols)
    return bytes([(table_class << 4) | table_id]) + bytes(counts) + bytes(symbols)


def jpeg(width, height, pixel, quality=80):
    """A baseline JPEG of the image whose (r, g, b) at (x, y) is pixel(x, y)."""
    tables = [scaled(LUMA_Q, quality), scaled(CHROMA_Q, quality)]
    planes = [[], [], []]
    for y in range(height):
        for x in range(width):
            r, g, b = pixel(x, y)
            planes[0].append(0.299 * r + 0.587 * g + 0.114 * b)
            planes[1].append(-0.168736 * r - 0.331264 * g + 0.5 * b + 128)
            planes[2].append(0.5 * r - 0.418688 * g - 0.081312 * b + 128)
    writer = BitWriter()
    previous = [0, 0, 0]
    for by in range(0, height, 8):
        for bx in range(0, width, 8):
            for component in range(3):
                samples = []
                for y in range(by, by + 8):
                    for x in range(bx, bx + 8):
                        # Edge blocks repeat the last row and column.
                        sx, sy = min(x, width - 1), min(y, height - 1)
                        samples.append(planes[component][sy * width + sx] - 128)
                frequencies = dct(samples)
                table = tables[0 if component == 0 else 1]
                quantized = [0] * 64
                for k in range(64):
                    position = ZIGZAG[k]
                    quantized[k] = int(round(frequencies[position] / table[position]))
                previous[component] = encode_block(
                    writer, quantized, previous[component], DC_CODES, AC_CODES)
    writer.flush()
    out = bytearray(b"\xFF\xD8")
    out += segment(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
    for table_id, table in enumerate(tables):
        out += segment(0xDB, bytes([table_id]) + bytes(table[p] for p in ZIGZAG))
    frame = bytes([8]) + height.to_bytes(2, "big") + width.to_bytes(2, "big") + bytes([3])
    for component in range(3):
        frame += bytes([component + 1, 0x11, 0 if component == 0 else 1])
    out += segment(0xC0, frame)
    for table_id in range(2):
        out += segment(0xC4, huffman_table(0, table_id, DC_SYMBOLS, DC_LENGTH))
        out += segment(0xC4, huffman_table(1, table_id, AC_SYMBOLS, AC_LENGTH))
    scan = bytes([3])
    for component in range(3):
        scan += bytes([component + 1, 0x00 if component == 0 else 0x11])
    out += segment(0xDA, scan + bytes([0, 63, 0]))
    out += writer.bytes + b"\xFF\xD9"
    return bytes(out)


# --- The drawings: a plate on a tablecloth, with the dish on it. ------------

def drawing(size, cloth, food, shape):
    centre = (size - 1) / 2

    def pixel(x, y):
        dx, dy = (x - centre) / size, (y - centre) / size
        distance = math.hypot(dx, dy)
        checked = ((x * 6 // size) + (y * 6 // size)) % 2
        r, g, b = cloth if checked else tuple(min(255, c + 60) for c in cloth)
        if distance < 0.42:
            r, g, b = (238, 236, 228) if distance > 0.36 else (250, 250, 246)
        if shape == "round" and distance < 0.26:
            r, g, b = food
        elif shape == "bowl" and distance < 0.3:
            shade = int(40 * (0.3 - distance) / 0.3)
            r, g, b = (min(255, food[0] + shade), min(255, food[1] + shade), food[2])
        elif shape == "stack" and abs(dx) < 0.24 and abs(dy) < 0.2 and int((dy + 0.2) * 25) % 3:
            r, g, b = food
        elif shape == "slice" and 0 < dy < 0.22 and abs(dx) < dy + 0.05:
            r, g, b = food
        return r, g, b

    return pixel


TYPES = {  # Name: tablecloth colour.
    "Dessert": (170, 60, 90),
    "Soup": (50, 110, 160),
    "Main course": (60, 130, 70),
    "Breakfast": (200, 150, 40),
}

RECIPES = [
    ("Chocolate Cake", "Dessert", 60, "Rich, dark and moist", (70, 40, 25), "slice",
     [("Flour", "2 cups"), ("Cocoa", "3/4 cup"), ("Sugar", "1 1/2 cups"), ("Eggs", "2"),
      ("Butter", "120 g")]),
    ("Lemon Tart", "Dessert", 75, "Sharp and sweet", (240, 210, 60), "slice",
     [("Pastry", "1 sheet"), ("Lemons", "4"), ("Eggs", "3"), ("Sugar", "150 g")]),
    ("Apple Crumble", "Dessert", 50, None, (190, 130, 70), "bowl",
     [("Apples", "6"), ("Oats", "1 cup"), ("Butter", "80 g"), ("Cinnamon", "1 tsp")]),
    ("Leek and Potato Soup", "Soup", 45, "A winter classic", (210, 210, 150), "bowl",
     [("Leeks", "3"), ("Potatoes", "500 g"), ("Stock", "1 l"), ("Cream", "100 ml")]),
    ("Tomato Soup", "Soup", 35, None, (200, 50, 40), "bowl",
     [("Tomatoes", "1 kg"), ("Onion", "1"), ("Garlic", "2 cloves"), ("Basil", "a handful")]),
    ("Pea and Mint Soup", "Soup", 25, "Bright green, ready in minutes", (110, 180, 70), "bowl",
     [("Peas", "500 g"), ("Mint", "a bunch"), ("Stock", "750 ml")]),
    ("Roast Chicken", "Main course", 90, "Sunday lunch", (200, 140, 60), "round",
     [("Chicken", "1.6 kg"), ("Lemon", "1"), ("Thyme", "4 sprigs"), ("Garlic", "1 head"),
      ("Olive oil", "2 tbsp")]),
    ("Mushroom Risotto", "Main course", 40, None, (220, 200, 160), "round",
     [("Arborio rice", "300 g"), ("Mushrooms", "250 g"), ("Stock", "1 l"), ("Parmesan", "50 g"),
      ("White wine", "1 glass")]),
    ("Vegetable Curry", "Main course", 55, "Mild, with chickpeas", (220, 150, 30), "bowl",
     [("Chickpeas", "400 g"), ("Coconut milk", "400 ml"), ("Spinach", "200 g"),
      ("Curry paste", "3 tbsp")]),
    ("Pancakes", "Breakfast", 20, "Thick and fluffy", (230, 180, 100), "stack",
     [("Flour", "200 g"), ("Milk", "300 ml"), ("Eggs", "2"), ("Baking powder", "2 tsp")]),
    ("Shakshuka", "Breakfast", 30, None, (210, 70, 40), "round",
     [("Tomatoes", "800 g"), ("Peppers", "2"), ("Eggs", "4"), ("Cumin", "1 tsp")]),
    ("Bircher Muesli", "Breakfast", 10, "Soaked overnight", (225, 215, 180), "bowl",
     [("Oats", "150 g"), ("Apple", "1"), ("Yoghurt", "200 g"), ("Honey", "1 tbsp")]),
]


def seed():
    records = []
    for name, kind, minutes, overview, food, shape, ingredients in RECIPES:
        pixel = drawing(48, TYPES[kind], food, shape)
        photo = drawing(96, TYPES[kind], food, shape)
        record = {"name": name, "type": kind, "prepTime": minutes}
        if overview:
            record["overview"] = overview
        record["instructions"] = f"Prepare the {ingredients[0][0].lower()} first, then the rest."
        record["thumbnailImage"] = jpeg(48, 48, pixel)
        record["image"] = {"image": jpeg(96, 96, photo)}
        record["ingredients"] = [
            {"name": item, "amount": amount, "displayOrder": order}
            for order, (item, amount) in enumerate(ingredients)
        ]
        records.append(record)
    return plistlib.dumps(records, fmt=plistlib.FMT_XML, sort_keys=True)


if __name__ == "__main__":
    target = Path(__file__).with_name("seed-recipes.plist")
    data = seed()
    if "--check" in sys.argv[1:]:
        same = target.exists() and target.read_bytes() == data
        print(f"{target.name}: {'up to date' if same else 'differs from make-seed.py'}")
        sys.exit(0 if same else 1)
    target.write_bytes(data)
    print(f"wrote {target.name}: {len(RECIPES)} recipes, {len(data)} bytes")
