// The last chat line the server refused, for the chat box to put back (TablePage
// provides it; every Chat reads it).
import { createContext } from "react";
import type { UnsentChat } from "./useTable";

export const UnsentChatContext = createContext<UnsentChat | null>(null);
