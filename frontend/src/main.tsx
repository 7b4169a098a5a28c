import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { loadStartLanguage } from "./app/i18n";
import "./app/styles.css";
import { App } from "./app/App";

// The page's language is fetched first: nothing shows in English on its way to Icelandic.
void loadStartLanguage().then(() =>
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
