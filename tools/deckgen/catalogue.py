"""Find usable motifs among the Openclipart SVGs shipped by Debian's ``openclipart-svg``.

Each SVG carries a title and keywords in its RDF metadata, but titles are uneven (many
are Italian, French or generic, e.g. "Various Cliparts"). A motif is accepted only when
its title or file name contains a word from :data:`LEXICON`, a hand-curated list of
single objects that read well in a dreamlike scene, and none from :data:`BLOCKED`
(logos, flags, signs, maps, icons, text, people …). The survivors are rasterised with
``rsvg-convert`` and rejected again when the picture does not look like one object:
an opaque background, many separate small pieces, a sliver, or an empty render.
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import re
import shutil
import subprocess
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

SVG_ROOT = Path("/usr/share/openclipart/svg")
LICENCE = "public domain (Openclipart)"

# Folders (relative to SVG_ROOT) that never hold single pictorial objects.
SKIPPED_DIRS = (
    "shapes", "special", "signs_and_symbols", "computer", "logos", "buttons", "people",
    "transportation/roadsigns", "transportation/aiga-symbols", "transportation/boating",
    "geography", "tools/weapons", "recreation/games", "recreation/religion",
    "science/medicine", "unsorted/duplicates",
)
ALLOWED_SUBDIRS = ("people/clothing", "geography/astronomy")

# kind → {match word: display noun}. The kind drives verbs and placement.
_LEXICON_BY_KIND: dict[str, dict[str, str]] = {
    "beast": {
        "elephant": "elephant", "elefante": "elephant", "elefantone": "elephant",
        "elefante01": "elephant", "elefante02": "elephant",
        "cat": "cat", "gatto": "cat", "gattina": "cat", "kitten": "kitten",
        "horse": "horse", "cavallo": "horse", "bear": "bear", "orso": "bear", "ours": "bear",
        "tiger": "tiger", "tigre01": "tiger", "tigre02": "tiger", "tigre03": "tiger",
        "tigre04": "tiger", "tigre05": "tiger", "lion": "lion", "leone": "lion",
        "giraffe": "giraffe", "camel": "camel", "cammello": "camel",
        "kangaroo": "kangaroo", "canguro": "kangaroo", "bunny": "rabbit",
        "coniglio": "rabbit", "rabbit": "rabbit", "fox": "fox", "deer": "deer",
        "fawn": "fawn", "stambecco": "ibex", "goat": "goat", "sheep": "sheep",
        "pecora": "sheep", "pecorella": "lamb", "cow": "cow", "mucca": "cow",
        "vacca": "cow", "bull": "bull", "pig": "pig", "porcinet": "piglet",
        "rhinoceros": "rhinoceros", "monkey": "monkey", "squirrel": "squirrel",
        "topo": "mouse", "bison": "bison", "armadillo": "armadillo",
        "antilope": "antelope", "raccoon": "raccoon", "hamster": "hamster",
        "beaver": "beaver", "chipmunk": "chipmunk", "baboon": "baboon",
        "orangutan": "orangutan", "echidna": "echidna", "rana": "frog", "rana01": "frog",
        "rana02": "frog", "rana03": "frog", "frog": "frog", "turtle": "turtle",
        "lumaca": "snail", "snail": "snail", "lucertola": "lizard", "lizard": "lizard",
        "ramarro": "lizard", "lucertolona": "lizard", "lucertolone": "lizard",
        "dino": "dinosaur", "dinosauro": "dinosaur", "dinosaur": "dinosaur",
        "dragon": "dragon", "penguin": "penguin", "pinguino": "penguin",
        "pinguino1": "penguin", "pinguino2": "penguin", "pinguino3": "penguin",
        "pinguino4": "penguin", "snake": "snake", "dog": "dog", "beagle": "beagle",
        "bulldog": "bulldog", "labrador": "dog", "puppy": "puppy", "teddy": "teddy bear",
        "teddybear": "teddy bear", "snowman": "snowman", "wolf": "wolf",
    },
    "bird": {
        "owl": "owl", "gufo": "owl", "crow": "crow", "eagle": "eagle", "aquila": "eagle",
        "acquila": "eagle", "swan": "swan", "cigno": "swan", "seagull": "seagull",
        "gabbiano": "seagull", "gull": "gull", "duck": "duck", "anatra": "duck",
        "papera": "duck", "dove": "dove", "colombo": "dove", "rooster": "rooster",
        "gallo": "rooster", "hen": "hen", "flamand": "flamingo", "flamingo": "flamingo",
        "puffin": "puffin", "cormorant": "cormorant", "struzzo": "ostrich",
        "ostrich": "ostrich", "uccello": "bird", "bird": "bird", "pennuto01": "bird",
        "pennuto02": "bird", "tacchino": "turkey", "pollo": "chicken",
    },
    "sea": {
        "whale": "whale", "bluewhale": "whale", "dolphin": "dolphin", "orca": "orca",
        "fish": "fish", "pescetto": "fish", "angelfish": "angelfish", "bofish": "fish",
        "gourami": "fish", "cichlid": "fish", "loach": "fish", "greyling": "fish",
        "seahorse": "seahorse", "crawfish": "crayfish", "seal": "seal",
    },
    "bug": {
        "butterfly": "butterfly", "farfalla": "butterfly", "bee": "bee", "abeille": "bee",
        "bee1": "bee", "bee2": "bee", "bee3": "bee", "dragonfly": "dragonfly",
        "libellula": "dragonfly", "libellule": "dragonfly", "damselfly": "dragonfly",
        "ladybug": "ladybird", "coccinella": "ladybird", "coccinelle": "ladybird",
        "coccinellona": "ladybird", "formichina": "ant", "formicona": "ant",
        "ragno": "spider", "cavalletta": "grasshopper", "grasshopper": "grasshopper",
        "caterpillar": "caterpillar", "mantide": "mantis", "mante": "mantis",
        "wasp": "wasp",
    },
    "plant": {
        "tree": "tree", "albero": "tree", "arbre": "tree", "palmtree": "palm tree",
        "palm": "palm tree", "cactus": "cactus", "cacuts": "cactus",
        "mushroom": "mushroom", "champignon": "mushroom", "toadstool": "toadstool",
        "flower": "flower", "fiore": "flower", "flower1": "flower", "flower2": "flower",
        "rosa1": "rose", "rosa2": "rose", "rose": "rose", "tulips": "tulip",
        "sunflower": "sunflower", "daisy": "daisy", "daffodil": "daffodil",
        "lotas": "lotus", "magnolia": "magnolia", "fern": "fern", "leaf": "leaf",
        "acorn": "acorn", "bamboo": "bamboo", "evergreen": "fir tree", "sapin": "fir tree",
        "geranium": "geranium", "sakura": "cherry blossom", "olivier": "olive tree",
        "reed": "reed", "pumpkin": "pumpkin", "zucca": "pumpkin",
    },
    "building": {
        "house": "house", "casa": "house", "home": "house", "lighthouse": "lighthouse",
        "church": "church", "chateau": "castle", "castle": "castle", "eiffel": "tower",
        "igloo": "igloo", "chalet": "chalet", "factory": "factory", "fabbrica": "factory",
        "school": "schoolhouse", "tenda": "tent", "tent": "tent", "tower": "water tower",
        "firestation": "fire station", "capitol": "domed palace", "library": "library",
        "villa": "villa", "elevator": "grain silo",
    },
    "vehicle": {
        "car": "car", "autos": "car", "redcar": "car", "sportcar": "sports car",
        "bus": "bus", "bus1": "bus", "bus2": "bus", "truck": "truck", "truck1": "truck",
        "truck2": "truck", "trattore": "tractor", "tractor": "tractor",
        "bicycle": "bicycle", "bicicletta": "bicycle", "bike": "bicycle",
        "motorcycle": "motorcycle", "motorcycle1": "motorcycle", "tramway": "tram",
        "train": "toy train", "sledge": "sledge", "wagon": "wagon",
        "firetruck": "fire engine", "engine": "fire engine",
    },
    "boat": {
        "boat": "boat", "boat1": "boat", "boat2": "boat", "sailboat": "sailboat",
        "ship": "ship", "trawler": "trawler",
    },
    "flyer": {
        "airplane": "aeroplane", "aircraft": "aeroplane", "aircraft1": "aeroplane",
        "aircraft2": "aeroplane", "aircraft3": "aeroplane", "aircraft4": "aeroplane",
        "aircraft5": "aeroplane", "plane": "aeroplane", "aerostatico": "hot-air balloon",
        "rocket": "rocket", "shuttle": "space shuttle", "balloon": "balloon",
        "baloon1": "balloon", "baloon2": "balloon", "palloncini": "bunch of balloons",
        "kite": "kite",
    },
    "instrument": {
        "violin": "violin", "cello": "cello", "guitar": "guitar", "guitar1": "guitar",
        "guitar2": "guitar", "harp": "harp", "harp1": "harp", "harp2": "harp",
        "harp3": "harp", "piano": "piano", "trumpet": "trumpet", "trombone": "trombone",
        "saxophone": "saxophone", "flute": "flute", "oboe": "oboe", "horn": "horn",
        "drum": "drum", "djambe": "drum", "africandrum1": "drum", "africandrum2": "drum",
        "africandrum3": "drum", "derbouk": "drum", "xylophone": "xylophone",
        "dulcimer": "dulcimer", "maracas": "pair of maracas", "gramophone": "gramophone",
        "jukebox": "jukebox", "bells": "pair of bells",
    },
    "object": {
        "teacup": "teacup", "tazza": "cup", "teapot": "teapot", "teiera": "teapot",
        "cup": "cup", "cuppa": "cup", "mug": "mug", "kubek": "mug",
        "chiave": "key", "key": "key", "lamp": "lamp", "lampada": "lamp",
        "umbrella": "umbrella", "clessidra": "hourglass", "hourglass": "hourglass",
        "book": "book", "books": "stack of books", "bible": "book", "diary": "book",
        "ksiega": "book", "bottle": "bottle", "bottiglia": "bottle",
        "glass": "glass", "candela": "candle", "candle": "candle",
        "lightbulb": "light bulb", "bulb": "light bulb", "compass": "compass",
        "bussola": "compass", "telescope": "telescope", "spyglass": "spyglass",
        "binocolo": "pair of binoculars", "magnifying": "magnifying glass",
        "magnifing": "magnifying glass", "scissors": "pair of scissors", "hat": "hat",
        "tophat": "top hat", "fedora": "hat", "sombrero": "sombrero", "crown": "crown",
        "couronne": "crown", "boot": "boot", "shoe": "shoe", "sedia": "chair",
        "chair": "chair", "poltrona": "armchair", "tavolo": "table", "table": "table",
        "couch": "sofa", "anchor": "anchor", "feather": "feather", "envelope": "envelope",
        "envelop": "envelope", "padlock": "padlock", "lucchetto": "padlock",
        "cage": "birdcage", "bucket": "bucket", "secchio": "bucket", "broom": "broom",
        "valigie": "pile of suitcases", "suitcase": "suitcase", "cesto": "basket",
        "basket": "basket", "box": "box", "scatolone": "box", "ladder": "ladder",
        "scala": "ladder", "globe": "globe", "apple": "apple", "pear": "pear",
        "pera": "pear", "lemon": "lemon", "cherry": "cherry", "cherries": "pair of cherries",
        "strawberry": "strawberry", "watermelon": "watermelon", "pasteque": "watermelon",
        "pesca": "peach", "prugna": "plum", "melon": "melon", "pineapple": "pineapple",
        "banana": "banana", "bananas": "bunch of bananas", "grapes": "bunch of grapes",
        "egg": "egg",
        "uovo": "egg", "bread": "loaf of bread", "croissant": "croissant",
        "cake": "cake", "cone": "ice-cream cone", "gelato": "ice-cream cone",
        "muffin": "muffin", "lollipop": "lollipop", "candy": "sweet",
        "pretzel": "pretzel", "cheese": "cheese", "duck1": "rubber duck",
        "robot": "robot", "dice": "dice", "sunglasses": "pair of sunglasses",
        "television": "television", "tv": "television", "telephone": "telephone",
        "phone": "telephone", "camera": "camera", "cinepresa": "film camera",
        "bell": "bell", "barrel": "barrel", "kettle": "kettle", "clock": "clock",
        "microscopio": "microscope", "microscope": "microscope", "flask": "flask",
        "erlenmeyer": "flask", "thermometer": "thermometer", "hammer": "hammer",
        "shovel": "shovel", "wrench": "wrench", "saw": "saw", "axe": "axe",
        "mailbox": "mailbox", "mailbox1": "mailbox", "mailbox2": "mailbox",
        "mailbox3": "mailbox", "pencil": "pencil", "pen": "pen",
        "brush": "paintbrush", "palette": "palette", "tavolozza": "palette",
        "aladino": "oil lamp", "boomerang": "boomerang", "surfboard": "surfboard",
        "ball": "ball", "beachball": "beach ball", "rubik": "puzzle cube",
        "cube": "ice cube", "icecube": "ice cube", "sandals": "pair of sandals",
        "mitten": "mitten", "earring": "earring", "ring": "ring", "rings": "pair of rings",
        "shield": "shield", "gift": "gift box", "regalo": "gift box", "vinyl": "record",
        "record": "record", "headphones": "pair of headphones", "cog": "cogwheel",
        "dentata": "cogwheel", "engrenagem": "cogwheel", "calamita": "magnet",
        "burner": "lantern", "hurricane": "lantern", "desk": "desk lamp",
        "frame": "picture frame", "flowerpot": "flowerpot", "pot": "flowerpot",
        "pan": "frying pan", "vase": "vase", "wreath": "wreath",
        "blocks": "pile of building blocks",
        "stones": "pile of stones", "rainbow": "rainbow",
    },
    "celestial": {
        "saturn": "Saturn", "jupiter": "Jupiter", "mars": "Mars", "venus": "Venus",
        "planet": "planet", "moon": "moon", "earth": "Earth",
    },
}

LEXICON: dict[str, tuple[str, str]] = {
    word: (noun, kind)
    for kind, words in _LEXICON_BY_KIND.items()
    for word, noun in words.items()
}
"""match word → (display noun, kind)."""

BLOCKED = frozenset("""
logo flag flags sign signs road map maps icon icons symbol simbol symbols button buttons
text letter letters alphabet abc arrow arrows smiley smilies card cards label labels
diagram blueprint illustration collection set scene landscape paesaggio pattern
template menu silhouet silhouette stamp stamper clipart head heads face faces
people person man woman girl boy ragazza ragazzo signorina principessa kid kids
dead death skull skeleton gun bomb bullet weapon sword blood cigarette smoke
bust contour outline sketch form platter spread thanksgiving family couple
wedding logaritmic paper papers chart graph screen monitor display panel keys
tatoo tatuaggio stick stickman footprints orme prints print holes hole hand hands
feet foot teeth eye eyes wizard costume leash scrathing post steps evolution fall
circle wheel etiquette road runner condominio grattacieli profilo city horizon skyline
sauce spaghetti lasagna bacon sausage hamburger burger hot perogies fries chips
pantyhose collant shirt camicia shorts thongs tie helix double virus amibe
demolizione costruzione traslocatore carpentiere imbianchino martellare
menu cd jacket cover pinout connector scart capacitors resistors diodes transistor
ammo grenade kallisti eris mcoon manuscriot mascot tux baby ninja incredible
maya sacco angry crazy psycho sleeping
""".split())  # noqa: SIM905
"""Title or file-name words that disqualify an SVG."""

# Files that pass the automatic checks but make poor motifs once looked at: text or a
# barcode on them, a whole scene, a faint sketch, an icon, or a misleading title (a corn
# dog is not a dog, an apple pie not an apple). Paths are relative to SVG_ROOT.
REJECTED_FILES = frozenset({
    "animals/birds/acquila_architetto_franc_04.svg",  # eagle
    "plants/bamboo_01.svg",  # bamboo
    "plants/bamboo_danny_allen_r.svg",  # bamboo
    "recreation/music/war_drum_enrique_meza_c_02.svg",  # drum
    "buildings/factory_gabrielle_nowick_.svg",  # factory
    "animals/bugs/ragno_figo_architetto_fr_01.svg",  # spider
    "animals/fish/dolphin_01.svg",  # dolphin
    "animals/mammals/dog_02_drawn_with_strai_01.svg",  # dog
    "animals/mammals/dolphin_01.svg",  # dolphin
    "animals/mammals/elephant_01.svg",  # elephant
    "animals/mammals/horses/horse_1_konstantin_r._01.svg",  # horse
    "animals/mammals/horses/horse_2_konstantin_r._01.svg",  # horse
    "animals/mammals/raccoon_ganson.svg",  # raccoon
    "buildings/furniture/soft_blue_couch_jonadab_01.svg",  # sofa
    "buildings/furniture/television_peterm_.svg",  # television
    "buildings/homes/abitazione_villa_con_gi_01.svg",  # villa
    "buildings/homes/casa_dei_sogni_architett_01.svg",  # house
    "buildings/homes/casa_in_campagna_archite_01.svg",  # house
    "buildings/homes/casa_plurifamigliare_arc_01.svg",  # house
    "buildings/homes/chalet_di_montagna_arch_01.svg",  # chalet
    "buildings/homes/home_piche_loic_corwin_r_01.svg",  # house
    "buildings/homes/houses_jon_phillips_01.svg",  # house
    "buildings/perspectival_house_01.svg",  # house
    "buildings/school_hallway_gerald_g._01.svg",  # schoolhouse
    "containers/box_juliane_krug_r.svg",  # box
    "containers/closed_box_juliane_krug_.svg",  # box
    "containers/closed_box_juliane_krug_r.svg",  # box
    "containers/open_box_juliane_krug_r.svg",  # box
    "containers/out_of_the_box_nicu_bucu_01.svg",  # box
    "containers/recycling_box_3d_a.j._as_01.svg",  # box
    "containers/recycling_box_a.j._ashto_01.svg",  # box
    "containers/valigie_bags_architetto__01.svg",  # suitcases
    "education/books/help-books-aj.svg_aj_ash_01.svg",  # books
    "education/books/open_book_01.svg",  # book
    "education/carnegie_library_building_01.svg",  # library
    "education/paint_brush_linda_kim_01.svg",  # paintbrush
    "education/slate-apple_benji_park_01.svg",  # apple
    "food/beverages/alcohol/martini_glass_k_yager_01.svg",  # glass
    "food/beverages/alcohol/wine_glass_christian_h._.svg",  # glass
    "food/beverages/apple_juice_box.svg",  # apple
    "food/beverages/apple_juice_box_bw.svg",  # apple
    "food/beverages/cuppa_schwoo_01.svg",  # cup
    "food/beverages/flower-pot_01.svg",  # flower
    "food/beverages/glass_01.svg",  # glass
    "food/beverages/orange_juice_box.svg",  # box
    "food/beverages/orange_juice_box_bw.svg",  # box
    "food/beverages/soft_drink.svg",  # cup
    "food/beverages/soft_drink_bw.svg",  # cup
    "food/beverages/tazza_di_caffe_architett_01.svg",  # cup
    "food/bread_and_wine_mark_near_.svg",  # loaf of bread
    "food/breads_and_carbs/bread_mateya_01.svg",  # loaf of bread
    "food/breads_and_carbs/pancakes_bw.svg",  # frying pan
    "food/breads_and_carbs/pancakes_ganson.svg",  # frying pan
    "food/cake_and_candle_anton_fr_01.svg",  # cake
    "food/crawfish1_bw_ganson.svg",  # crayfish
    "food/crawfish2_bw_ganson.svg",  # crayfish
    "food/dairy/cheese_mateya_01.svg",  # cheese
    "food/desserts/cake_etienne_bersac_r.svg",  # cake
    "food/desserts/cake_mateya_01.svg",  # cake
    "food/desserts/cone3_bw_ganson.svg",  # ice-cream cone
    "food/desserts/pie_apple.svg",  # apple
    "food/desserts/pie_apple_bw.svg",  # apple
    "food/desserts/pie_cherry.svg",  # cherry
    "food/desserts/pie_cherry_bw.svg",  # cherry
    "food/desserts/pie_pumpkin.svg",  # pumpkin
    "food/desserts/pie_pumpkin_bw.svg",  # pumpkin
    "food/fruit/apple_juice_box.svg",  # apple
    "food/fruit/apple_juice_box_bw.svg",  # apple
    "food/fruit/apple_mateya_01.svg",  # apple
    "food/fruit/apple_wedge_bw.svg",  # apple
    "food/fruit/banana_mateya_01.svg",  # banana
    "food/fruit/pie_apple.svg",  # apple
    "food/fruit/pie_apple_bw.svg",  # apple
    "food/fruit/pie_cherry.svg",  # cherry
    "food/fruit/pie_cherry_bw.svg",  # cherry
    "food/fruit/slate-apple_benji_park_01.svg",  # apple
    "food/meats_and_eggs/corn_dog.svg",  # dog
    "food/meats_and_eggs/corn_dog_bw.svg",  # dog
    "food/meats_and_eggs/egg_mateya_01.svg",  # egg
    "food/meats_and_eggs/egg_muffin.svg",  # egg
    "food/onion_rings.svg",  # rings
    "food/onion_rings_bw.svg",  # rings
    "food/pizza_cheese.svg",  # cheese
    "food/pizza_cheese_bw.svg",  # cheese
    "geography/astronomy/moon-crescent.svg",  # moon
    "geography/astronomy/moon-crescent2.svg",  # moon
    "geography/astronomy/moon-half.svg",  # moon
    "geography/astronomy/moon-half2.svg",  # moon
    "office/desk_lamp_gerald_g._01.svg",  # desk lamp
    "office/fabbrica_architetto_fran_01.svg",  # factory
    "office/open_box_nicu_buculei_01.svg",  # box
    "office/telephone/sprint_cell_phone_joel_r.svg",  # telephone
    "office/telephone/telephone_lutte_incendi_01.svg",  # telephone
    "office/telephone/telephone_sauvetage_yves_01.svg",  # telephone
    "people/clothing/earring_frouke_01.svg",  # earring
    "people/clothing/hats/slouch_hat_01.svg",  # hat
    "people/clothing/sunglasses_linda_kim_01.svg",  # sunglasses
    "plants/cactus_linda_kim_01.svg",  # cactus
    "plants/cannabis_leaf_anonymous_.svg",  # leaf
    "plants/flowers/dream_flower_janet_theob_01.svg",  # flower
    "plants/reed_gmv_.svg",  # reed
    "plants/trees/tree_01.svg",  # tree
    "recreation/holiday/rainbow_linda_kim_01.svg",  # rainbow
    "recreation/holiday/sailing_sunset.svg",  # sailboat
    "recreation/music/piano_geraint_luff_01.svg",  # piano
    "recreation/music/piano_theory__ganson.svg",  # piano
    "recreation/music/piano_theory_ganson1.svg",  # piano
    "recreation/music/trumpet_harmon_mute__ganson.svg",  # trumpet
    "recreation/music/trumpet_straight_mute_ganson.svg",  # trumpet
    "recreation/music/war_drum_enrique_meza_c_01.svg",  # drum
    "recreation/party/rainbow_linda_kim_01.svg",  # rainbow
    "recreation/party/wine_glass_christian_h._.svg",  # glass
    "recreation/sports/table_tennis_omar_abo-na_01.svg",  # table
    "recreation/sports/table_tennis_racquets_o_01r.svg",  # table
    "science/astronomy/moon_jasper_van_de_grond_01.svg",  # moon
    "tools/bucket_michael_moore_.svg",  # bucket
    "tools/green_burner_01.svg",  # lantern
    "tools/mag1.svg",  # magnifying glass
    "tools/mag2.svg",  # magnifying glass
    "tools/mag3.svg",  # magnifying glass
    "tools/mag4.svg",  # magnifying glass
    "tools/orange_burner_01.svg",  # lantern
    "tools/paint_brush_linda_kim_01.svg",  # paintbrush
    "tools/scrub_brush_michael_moor_.svg",  # paintbrush
    "tools/toys/unit_blocks_lion_kimbro_01.svg",  # building blocks
    "tools/utensili_chiave_e_cacci_01.svg",  # key
    "transportation/autos_01.svg",  # car
    "transportation/bicycle_philippe_colin_01.svg",  # bicycle
    "transportation/big_truck_01.svg",  # truck
    "transportation/fire_engine_romus_01.svg",  # fire engine
    "transportation/vehicles/airplane_nicu_buculei_01.svg",  # aeroplane
    "unsorted/caterpillar.svg",  # caterpillar
    "unsorted/pennuto02.svg",  # bird
    "unsorted/scatolone.svg",  # box
    "unsorted/scodella_gatto_architett_01.svg",  # cat
    "unsorted/stones_01.svg",  # stones
    "unsorted/van_gogh_s_sun_flower_en_01.svg",  # flower
})

CACHE_DIR = Path.home() / ".cache" / "gametable-deckgen"
RENDER_PROBE = 320  # px, the longest side of the first render used for the checks
RENDER_TARGET = 900  # px, the longest side of the motif's own bounding box afterwards


@dataclass(frozen=True)
class Candidate:
    """An SVG whose title names a usable motif (before the render checks)."""

    path: Path
    title: str
    noun: str
    kind: str
    digest: str


@dataclass(frozen=True)
class Motif:
    """A curated motif: a rendered, cropped RGBA picture of one object."""

    path: Path
    title: str
    noun: str
    kind: str
    digest: str
    png: Path  # cached render, cropped to the object's bounding box
    aspect: float  # width / height of the crop

    def image(self) -> Image.Image:
        with Image.open(self.png) as im:
            return im.convert("RGBA")

    def source(self) -> dict[str, str]:
        return {"file": str(self.path), "title": self.title, "licence": LICENCE}


_TITLE_RE = re.compile(r"<cc:Work[^>]*>.*?<dc:title>(.*?)</dc:title>", re.S)
_PLAIN_TITLE_RE = re.compile(r"<title[^>]*>(.*?)</title>", re.S)
_WORD_RE = re.compile(r"[a-z]+[0-9]*")


def read_title(text: str) -> str:
    """The work's title from the RDF metadata (or ``<title>``), unescaped and trimmed."""
    match = _TITLE_RE.search(text) or _PLAIN_TITLE_RE.search(text)
    if not match:
        return ""
    title = html.unescape(html.unescape(match.group(1)))
    return " ".join(title.split())


def words(text: str) -> list[str]:
    return _WORD_RE.findall(text.lower().replace("_", " ").replace("-", " "))


GENERIC_TITLES = ("clipart", "sibmission", "submission", "openclipart", "general")


def is_generic(title: str) -> bool:
    """Whether a title says nothing about the picture ("Various Cliparts", "R16 …")."""
    lowered = title.lower()
    return not lowered or any(word in lowered for word in GENERIC_TITLES)


def classify(title: str, stem: str) -> tuple[str, str] | None:
    """(noun, kind) for a title and file-name stem, or ``None`` when unusable."""
    title_words = [] if is_generic(title) else words(title)
    stem_words = words(stem)
    if BLOCKED.intersection(title_words) or BLOCKED.intersection(stem_words):
        return None
    # Prefer the title; "Various Cliparts" and similar generic titles fall back to the
    # file name, whose first words usually name the object.
    for group in (title_words, stem_words[:3]):
        for word in group:
            hit = LEXICON.get(word) or LEXICON.get(word.rstrip("s"))
            if hit is not None:
                return hit
    return None


def _skipped(rel: Path) -> bool:
    text = rel.as_posix()
    if any(text.startswith(allowed + "/") for allowed in ALLOWED_SUBDIRS):
        return False
    return any(text.startswith(skipped + "/") for skipped in SKIPPED_DIRS)


def scan(root: Path = SVG_ROOT) -> tuple[int, list[Candidate]]:
    """(number of SVGs looked at, candidates in a stable order, one per distinct file)."""
    total = 0
    seen: set[str] = set()
    found: list[Candidate] = []
    for path in sorted(root.rglob("*.svg")):
        total += 1
        rel = path.relative_to(root)
        if _skipped(rel) or rel.as_posix() in REJECTED_FILES:
            continue
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        title = read_title(data[:60_000].decode("utf-8", "replace"))
        hit = classify(title, path.stem)
        if hit is None:
            continue
        seen.add(digest)
        found.append(Candidate(path=path, title=title, noun=hit[0], kind=hit[1],
                               digest=digest))
    return total, found


def rasterise(svg: Path, size: int) -> Image.Image | None:
    """Render ``svg`` so that its page's longest side is ``size`` px (``None`` on failure)."""
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise RuntimeError("rsvg-convert is missing: apt-get install librsvg2-bin")
    try:
        done = subprocess.run(
            [exe, "--keep-aspect-ratio", "-w", str(size), "-h", str(size), "-f", "png",
             str(svg)],
            capture_output=True, timeout=120, check=False)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0 or not done.stdout:
        return None
    try:
        with Image.open(io.BytesIO(done.stdout)) as im:
            return im.convert("RGBA")
    except OSError:
        return None


def _components(mask: Image.Image) -> list[int]:
    """Sizes of the 4-connected blobs of a small binary mask, largest first."""
    width, height = mask.size
    data = bytearray(mask.tobytes())
    sizes: list[int] = []
    for start in range(width * height):
        if not data[start]:
            continue
        data[start] = 0
        stack = [start]
        count = 0
        while stack:
            at = stack.pop()
            count += 1
            x, y = at % width, at // width
            for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                if 0 <= nx < width and 0 <= ny < height:
                    nxt = ny * width + nx
                    if data[nxt]:
                        data[nxt] = 0
                        stack.append(nxt)
        sizes.append(count)
    return sorted(sizes, reverse=True)


def judge(image: Image.Image) -> str | None:
    """Why a probe render is not one clear object, or ``None`` when it is fine."""
    alpha = image.getchannel("A")
    box = alpha.point(lambda v: 255 if v > 24 else 0).getbbox()
    if box is None:
        return "empty"
    left, top, right, bottom = box
    bw, bh = right - left, bottom - top
    if min(bw, bh) < 12:
        return "too small"
    if not 0.22 <= bw / bh <= 4.5:
        return "sliver"
    crop = alpha.crop(box)
    small = crop.resize((max(8, bw // 4), max(8, bh // 4)), Image.Resampling.BOX)
    mask = small.point(lambda v: 1 if v > 60 else 0)
    histogram = mask.histogram()
    filled = histogram[1] / max(1, sum(histogram))
    page_fill = (bw * bh) / (image.width * image.height)
    if filled > 0.97 and page_fill > 0.85:
        return "opaque background"
    if filled < 0.12:
        return "sparse"
    blobs = _components(mask)
    solid = sum(blobs)
    big = [b for b in blobs if b >= 0.02 * solid]
    if blobs[0] < 0.6 * solid or len(big) > 4:
        return "many pieces"
    return None


def _motif_from(candidate: Candidate) -> Motif | str:
    """Render, check and cache one candidate; a reason string when rejected."""
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    png = CACHE_DIR / f"{candidate.digest[:24]}.png"
    meta = CACHE_DIR / f"{candidate.digest[:24]}.json"
    if meta.exists():
        info = json.loads(meta.read_text())
        if info.get("reject"):
            return str(info["reject"])
        return Motif(path=candidate.path, title=candidate.title, noun=candidate.noun,
                     kind=candidate.kind, digest=candidate.digest, png=png,
                     aspect=float(info["aspect"]))
    probe = rasterise(candidate.path, RENDER_PROBE)
    reason = "render failed" if probe is None else judge(probe)
    if probe is None or reason is not None:
        meta.write_text(json.dumps({"reject": reason}))
        return reason or "rejected"
    box = probe.getchannel("A").point(lambda v: 255 if v > 24 else 0).getbbox()
    assert box is not None
    longest = max(box[2] - box[0], box[3] - box[1])
    size = min(6000, round(RENDER_PROBE * RENDER_TARGET / longest) + 8)
    full = rasterise(candidate.path, size) or probe
    full_box = full.getchannel("A").point(lambda v: 255 if v > 8 else 0).getbbox()
    if full_box is None:
        meta.write_text(json.dumps({"reject": "empty"}))
        return "empty"
    crop = full.crop(full_box)
    crop.thumbnail((RENDER_TARGET, RENDER_TARGET), Image.Resampling.LANCZOS)
    crop.save(png)
    aspect = crop.width / crop.height
    meta.write_text(json.dumps({"aspect": aspect}))
    return Motif(path=candidate.path, title=candidate.title, noun=candidate.noun,
                 kind=candidate.kind, digest=candidate.digest, png=png, aspect=aspect)


def curate(candidates: Iterable[Candidate], *, workers: int = 4,
           advance: Callable[[], None] | None = None) -> tuple[list[Motif], dict[str, int]]:
    """Render and check candidates; (motifs in input order, rejection counts by reason)."""
    items = list(candidates)
    results: list[Motif | str] = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for result in pool.map(_motif_from, items):
            results.append(result)
            if advance is not None:
                advance()
    motifs = [r for r in results if isinstance(r, Motif)]
    reasons: dict[str, int] = {}
    for r in results:
        if isinstance(r, str):
            reasons[r] = reasons.get(r, 0) + 1
    return motifs, reasons
