// How each breed is drawn: fur and marking colours, pattern, ears and eyes.
export type Pattern = "solid" | "tabby" | "points" | "spots" | "bicolor" | "ticked" | "calico" | "van" | "hairless" | "curly";
export type Ears = "normal" | "curl" | "fold" | "big" | "tufted";

export interface Look {
  fur: string;
  mark: string;
  pattern: Pattern;
  ears: Ears;
  eyes: string;
}

const AMBER = "#d9a21b";
const BLUE = "#3d8fe0";
const GREEN = "#58a55c";
const COPPER = "#c56a1f";

const look = (fur: string, mark: string, pattern: Pattern, ears: Ears = "normal", eyes = AMBER): Look => ({
  fur,
  mark,
  pattern,
  ears,
  eyes,
});

export const LOOKS: Record<string, Look> = {
  abyssinian: look("#c67c40", "#7d4519", "ticked", "big"),
  ragamuffin: look("#e6d6c0", "#8d7156", "bicolor"),
  "american-curl": look("#d9a15c", "#9a6428", "tabby", "curl"),
  "american-shorthair": look("#b3b3b3", "#4a4a4a", "tabby"),
  savannah: look("#dcb768", "#3a2a16", "spots", "big"),
  balinese: look("#f1e6d2", "#5d4030", "points", "big", BLUE),
  bengal: look("#dc9b43", "#4f2d10", "spots"),
  "la-perm": look("#c99e74", "#8a5f3a", "curly"),
  "cornish-rex": look("#bba99a", "#7d6a5b", "curly", "big"),
  chartreux: look("#8e9aaa", "#6c7786", "solid", "normal", COPPER),
  burmese: look("#7b4b29", "#4d2c14", "solid"),
  "british-shorthair": look("#8a95a3", "#6b7583", "solid", "normal", COPPER),
  bombay: look("#24232a", "#111015", "solid", "normal", COPPER),
  birman: look("#f2e7d4", "#5a3d2e", "points", "normal", BLUE),
  "devon-rex": look("#cbb39a", "#8e7358", "curly", "big"),
  "egyptian-mau": look("#bdbdb3", "#3c3c3c", "spots", "normal", GREEN),
  "exotic-shorthair": look("#dba266", "#a86a2c", "solid"),
  tabby: look("#e3a14e", "#a3541a", "tabby"),
  himalayan: look("#f0e2cd", "#5c4333", "points", "normal", BLUE),
  "japanese-bobtail": look("#f6f3ec", "#d07a2c", "calico"),
  "turkish-van": look("#f7f4ef", "#c9743a", "van"),
  ocicat: look("#d5b58b", "#6a4a2a", "spots"),
  "norwegian-forest-cat": look("#9b8978", "#4f4236", "tabby", "tufted", GREEN),
  nebelung: look("#8f9aa8", "#7a8594", "solid", "tufted", GREEN),
  munchkin: look("#e7bb7c", "#b07d3c", "bicolor"),
  manx: look("#727272", "#4a4a4a", "solid"),
  "maine-coon": look("#8d5f3d", "#3f2614", "tabby", "tufted"),
  korat: look("#7f8c9a", "#697684", "solid", "normal", GREEN),
  oriental: look("#5b4735", "#3a2c20", "solid", "big", GREEN),
  persian: look("#f5f1ea", "#d9cfc2", "solid", "normal", COPPER),
  ragdoll: look("#ede3d4", "#6c594c", "points", "normal", BLUE),
  "russian-blue": look("#7e90a4", "#65778b", "solid", "normal", GREEN),
  "scottish-fold": look("#b1b7bf", "#6d737b", "tabby", "fold"),
  "selkirk-rex": look("#d5c3a9", "#9b8263", "curly"),
  siamese: look("#f0e5d1", "#4a3427", "points", "big", BLUE),
  "turkish-angora": look("#fbfaf6", "#e5e1d9", "solid", "normal", BLUE),
  tonkinese: look("#a27a5c", "#5b3c2b", "points", "normal", "#4cb3b0"),
  sphynx: look("#f0c6b6", "#d99c8a", "hairless", "big", GREEN),
  somali: look("#c27139", "#7b3f16", "ticked", "tufted"),
  snowshoe: look("#e9ddcc", "#5a4536", "points", "normal", BLUE),
  singapura: look("#caa47b", "#7f5b36", "ticked", "big", GREEN),
  siberian: look("#a08b71", "#4f4131", "tabby", "tufted"),
};

export const SPECIAL_LOOKS: Record<string, { colour: string; symbol: string }> = {
  purrr: { colour: "#2a9d6e", symbol: "♥" },
  meow: { colour: "#d6452f", symbol: "✕" },
};
