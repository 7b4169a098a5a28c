// The link that downloads a finished table's record. A table whose host switched
// watching off gives it only to its players and host, so the file is fetched with the
// tokens this browser holds there (a plain link sends none) and saved from memory.
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, tableTokenHeaders } from "./api";
import { translateError } from "./translateError";
import type { ErrorMessage } from "./types";

export function RecordLink({ table, children }: { table: string; children: ReactNode }) {
  const { t } = useTranslation();
  const [error, setError] = useState<ErrorMessage | null>(null);
  const href = `/api/tables/${encodeURIComponent(table)}/record`;
  const headers = tableTokenHeaders(table);
  return (
    <>
      <a
        className="button"
        href={href}
        download
        data-action="download-record"
        onClick={(event) => {
          // Without a token here the plain link does as well (and keeps "Save link as").
          if (Object.keys(headers).length === 0) return;
          event.preventDefault();
          setError(null);
          void download(href, headers).catch((caught) =>
            setError(caught instanceof ApiError ? caught.error : null),
          );
        }}
      >
        {children}
      </a>
      {error && (
        <span className="notice error" role="alert">
          {translateError(t, error)}
        </span>
      )}
    </>
  );
}

async function download(href: string, headers: Record<string, string>): Promise<void> {
  const response = await fetch(href, { headers });
  if (!response.ok) {
    const data = await response.json().catch(() => null);
    if (data && data.type === "error") throw new ApiError(data as ErrorMessage, response.status);
    throw new Error(response.statusText);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? "record.json";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
