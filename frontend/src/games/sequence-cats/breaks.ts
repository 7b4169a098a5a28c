// Where a long breed name may break over two lines of a small space or card: a soft
// hyphen (shown as "-" only where the line breaks). Without one, a word wider than its
// space broke at any letter ("Síamskött / ur"); browsers hyphenate few languages by
// themselves (none in Icelandic). For display only: names stay whole everywhere else.

const SOFT = "\u00ad";

/** The breed-name words of 7 letters or more (every card language; "Bombaim" broke as
 * "Bombai / m" on a phone's card), "·" where they break. */
const PARTS: Readonly<Record<string, string>> = {
  Abessiníuköttur: "Abes·siníu·köttur",
  Abissínio: "Abis·sínio",
  Abyssinian: "Abys·sinian",
  American: "Ameri·can",
  Americano: "Ameri·cano",
  angóraköttur: "angóra·köttur",
  Baliköttur: "Bali·köttur",
  Balinese: "Bali·nese",
  Balinês: "Bali·nês",
  Bengali: "Ben·gali",
  Birmânia: "Birmâ·nia",
  Blárússi: "Blá·rússi",
  Bobtail: "Bob·tail",
  bobtail: "bob·tail",
  Bombaim: "Bom·baim",
  British: "Bri·tish",
  Britânico: "Britâ·nico",
  Bröndóttur: "Brönd·óttur",
  Burmaköttur: "Burma·köttur",
  Burmese: "Bur·mese",
  Chartreux: "Char·treux",
  Cornish: "Cor·nish",
  Egypskur: "Egyp·skur",
  Egyptian: "Egyp·tian",
  Egípcio: "Egíp·cio",
  Exótico: "Exó·tico",
  Floresta: "Flo·resta",
  Himalaio: "Hima·laio",
  Himalaji: "Hima·laji",
  Himalayan: "Hima·layan",
  Japanese: "Japa·nese",
  Japanskur: "Japan·skur",
  Japonês: "Japo·nês",
  Manarköttur: "Manar·köttur",
  Munchkin: "Munch·kin",
  máköttur: "má·köttur",
  Nebelung: "Nebe·lung",
  Norueguesa: "Norue·guesa",
  Norwegian: "Nor·wegian",
  Ociköttur: "Oci·köttur",
  Oriental: "Orien·tal",
  Persian: "Per·sian",
  Ragamuffin: "Raga·muffin",
  Ragdoll: "Rag·doll",
  Russian: "Rus·sian",
  Sagrado: "Sa·grado",
  Savannah: "Savan·nah",
  Scottish: "Scot·tish",
  Selkirk: "Sel·kirk",
  Shorthair: "Short·hair",
  Siamese: "Sia·mese",
  Siberian: "Sibe·rian",
  Siberiano: "Sibe·riano",
  Siberískur: "Siberí·skur",
  Singapura: "Singa·pura",
  Singapúra: "Singa·púra",
  skógarköttur: "skógar·köttur",
  Snowshoe: "Snow·shoe",
  Síamsköttur: "Síams·köttur",
  Tigrado: "Ti·grado",
  Tonkinese: "Tonki·nese",
  Tonkinköttur: "Tonkin·köttur",
  Tonquinês: "Tonqui·nês",
  Turkish: "Tur·kish",
  Tyrkneskur: "Tyrk·neskur",
  vanköttur: "van·köttur",
};

/** `name` with soft hyphens where its long words may break. */
export function breakable(name: string): string {
  return name
    .split(" ")
    .map((word) => (PARTS[word] ?? word).replaceAll("·", SOFT))
    .join(" ");
}
