// A link to another page of the app: a plain click changes the page in place (no reload:
// the connection and the chosen language stay); Ctrl, ⌘, Shift or a middle click opens it
// in a new tab or window, as any link does (they were turned into a click in place).
import type { MouseEvent, ReactNode } from "react";
import { navigate } from "./router";

interface AppLinkProps {
  href: string;
  className?: string;
  children: ReactNode;
}

/** Whether the browser should follow the click itself (a new tab, a new window…). */
export function opensElsewhere(event: MouseEvent): boolean {
  return event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey;
}

export function AppLink({ href, className, children }: AppLinkProps) {
  return (
    <a
      className={className}
      href={href}
      onClick={(event) => {
        if (opensElsewhere(event)) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}
