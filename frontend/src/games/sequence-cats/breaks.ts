// Where a long breed name may break over two lines of a small space or card: a soft
// hyphen (shown as "-" only where the line breaks). Without one, a word wider than its
// space broke at any letter ("Síamskött / ur"); browsers hyphenate few languages by
// themselves (none in Icelandic). For display only: names stay whole everywhere else.
// Shown through `BreakableName` (BreakableName.tsx), which breaks a word only where the
// word alone is wider than its line ("Azul / Russo", never "Azul Rus- / so").

const SOFT = "\u00ad";

/** The breed-name words of 5 letters or more (every card language), "·" between their
 * syllables: "Bombaim" broke as "Bombai / m" on a phone's card, "Bengal" as "Benga / l"
 * on the 22 px spaces of a phone held sideways. */
const PARTS: Readonly<Record<string, string>> = {
  Abessiníuköttur: "Abes·siníu·köttur",
  Abissínio: "Abis·sínio",
  Abyssinian: "Abys·sinian",
  American: "Ameri·can",
  Americano: "Ameri·cano",
  Angora: "An·gora",
  Angorá: "An·gorá",
  angóraköttur: "an·góra·köt·tur",
  Baliköttur: "Bali·köt·tur",
  Balinese: "Bali·nese",
  Balinês: "Bali·nês",
  Bengal: "Ben·gal",
  Bengali: "Ben·gali",
  Birman: "Bir·man",
  Birmânia: "Birmâ·nia",
  Blárússi: "Blá·rússi",
  Bobtail: "Bob·tail",
  bobtail: "bob·tail",
  Bombaim: "Bom·baim",
  Bombay: "Bom·bay",
  British: "Bri·tish",
  Britânico: "Britâ·nico",
  Bröndóttur: "Brönd·ót·tur",
  Burmaköttur: "Bur·ma·köt·tur",
  Burmese: "Bur·mese",
  Burmês: "Bur·mês",
  Chartreux: "Char·treux",
  Cornish: "Cor·nish",
  Curto: "Cur·to",
  Devon: "De·von",
  Egypskur: "Egyp·skur",
  Egyptian: "Egyp·tian",
  Egípcio: "Egíp·cio",
  Exotic: "Exo·tic",
  Exótico: "Exó·tico",
  flipi: "fli·pi",
  Floresta: "Flo·res·ta",
  Forest: "For·est",
  Himalaio: "Hima·laio",
  Himalaji: "Hima·laji",
  Himalayan: "Hima·layan",
  Japanese: "Japa·nese",
  Japanskur: "Ja·pan·skur",
  Japonês: "Japo·nês",
  Korat: "Ko·rat",
  Kórat: "Kó·rat",
  LaPerm: "La·Perm",
  Manarköttur: "Ma·nar·köt·tur",
  Munchkin: "Munch·kin",
  máköttur: "má·köt·tur",
  Nebelung: "Nebe·lung",
  Norueguesa: "No·rue·gue·sa",
  Norskur: "Nors·kur",
  Norwegian: "Nor·we·gian",
  Ocicat: "Oci·cat",
  Ociköttur: "Oci·köt·tur",
  Oriental: "Orien·tal",
  Persa: "Per·sa",
  Persi: "Per·si",
  Persian: "Per·sian",
  Ragamuffin: "Raga·muffin",
  Ragdoll: "Rag·doll",
  Russian: "Rus·sian",
  Russo: "Rus·so",
  Sagrado: "Sa·grado",
  Savannah: "Sa·van·nah",
  Scottish: "Scot·tish",
  Selkirk: "Sel·kirk",
  Shorthair: "Short·hair",
  Siamese: "Sia·mese",
  Siamês: "Sia·mês",
  Siberian: "Sibe·rian",
  Siberiano: "Sibe·riano",
  Siberískur: "Si·berí·skur",
  Singapura: "Singa·pura",
  Singapúra: "Singa·púra",
  Skoskur: "Skos·kur",
  skógarköttur: "skó·gar·köt·tur",
  Snowshoe: "Snow·shoe",
  Somali: "So·mali",
  Síamsköttur: "Síams·köt·tur",
  Sómali: "Só·mali",
  Tabby: "Tab·by",
  Tigrado: "Ti·grado",
  Tonkinese: "Tonki·nese",
  Tonkinköttur: "Ton·kin·köt·tur",
  Tonquinês: "Ton·qui·nês",
  Turco: "Tur·co",
  Turkish: "Tur·kish",
  Tyrkneskur: "Tyrk·nes·kur",
  vanköttur: "van·köt·tur",
};

/** `name` with soft hyphens where its long words may break. */
export function breakable(name: string): string {
  return name
    .split(" ")
    .map((word) => (PARTS[word] ?? word).replaceAll("·", SOFT))
    .join(" ");
}

// Letters' widths in a bold sans-serif, relative to an "n": enough to tell "Munch-" (6)
// from "Orien-" (4.8) and "muffin" (5.2).
const WIDE = "mwMW";
const NARROW = "fijlrtIJíìïj";

function width(piece: string): number {
  let sum = 0;
  for (const letter of piece) sum += WIDE.includes(letter) ? 1.4 : NARROW.includes(letter) ? 0.6 : 1;
  return sum;
}

/** How wide the widest piece of `shown` (a name from {@link breakable}) that cannot break
 * over two lines is, in widths of an "n", a hyphen drawn at its end included: a space
 * sizes the name so that this piece fits ("Sphynx": 6; "Munch-kin": 6; "Orien-tal": 4.8). */
export function longestPiece(shown: string): number {
  let longest = 0;
  for (const word of shown.split(" ")) {
    const pieces = word.split(SOFT);
    pieces.forEach((piece, i) => {
      longest = Math.max(longest, width(piece) + (i < pieces.length - 1 ? 0.6 : 0));
    });
  }
  return Math.round(longest * 10) / 10;
}
