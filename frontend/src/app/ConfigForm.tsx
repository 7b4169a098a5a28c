// A form for a game's options, generated from the JSON Schema the server exports.
import { useTranslation } from "react-i18next";
import { DeckPicker } from "./DeckPicker";
import { Field } from "./Field";
import type { JsonSchema } from "./types";

interface Props {
  namespace: string;
  schema: JsonSchema;
  seats: number;
  values: Record<string, unknown>;
  onChange: (values: Record<string, unknown>) => void;
}

type Field = { name: string; schema: JsonSchema; choices: unknown[] | null; nullable: boolean; deck?: boolean };

type Extra = JsonSchema & {
  "x-seats"?: number[];
  "x-advanced"?: boolean;
  "x-hidden"?: boolean;
  /** Shown only while each named option has one of the listed values (its default if unset). */
  "x-when"?: Record<string, unknown[]>;
  "x-choices"?: unknown[];
  "x-deck"?: boolean;
  /** A deck option's fewest cards for any table (a smaller upload is warned of). */
  "x-fewest-cards"?: number;
  "x-ui-language"?: boolean;
};

/** Options that start as the player's own language ("x-ui-language": true, such as the
 * language of Dixit's computer players' clues), where the option offers that language. */
export function languageDefaults(schema: JsonSchema, language: string): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  const code = language.split("-")[0];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if ((property as Extra)["x-ui-language"] && property.enum?.includes(code)) found[name] = code;
  }
  return found;
}

/** A field naming a picture deck ("x-deck": true): shown as a deck picker. */
const isDeck = (schema: JsonSchema) =>
  Boolean((schema as Extra)["x-deck"] || schema.anyOf?.some((variant) => (variant as Extra)["x-deck"]));

function describe(name: string, schema: JsonSchema): Field | null {
  const variants = schema.anyOf ?? [schema];
  const nullable = variants.some((v) => v.type === "null");
  const concrete = variants.filter((v) => v.type !== "null");
  if (concrete.length !== 1) return null;
  const only = concrete[0];
  // A wide range with suggested values ("x-choices", on the field or its type): offer
  // those, and the default too if it is not among them.
  const suggested = (schema as Extra)["x-choices"] ?? (only as Extra)["x-choices"];
  if (suggested?.length) {
    const fallback = schema.default;
    const extra = fallback !== undefined && fallback !== null && !suggested.includes(fallback) ? [fallback] : [];
    return { name, schema, choices: [...suggested, ...extra], nullable };
  }
  if (only.enum) return { name, schema, choices: only.enum, nullable };
  if (only.type === "boolean") return { name, schema, choices: [false, true], nullable };
  if (only.type === "integer" && only.minimum !== undefined && only.maximum !== undefined && only.maximum - only.minimum <= 8) {
    const choices = [];
    for (let n = only.minimum; n <= only.maximum; n++) choices.push(n);
    return { name, schema, choices, nullable };
  }
  return null;
}

function shown(property: JsonSchema, seats: number, schema: JsonSchema, values: Record<string, unknown>): boolean {
  const extra = property as Extra;
  if (extra["x-advanced"] || extra["x-hidden"] || (extra["x-seats"] && !extra["x-seats"].includes(seats))) return false;
  const properties = schema.properties ?? {};
  return Object.entries(extra["x-when"] ?? {}).every(([other, allowed]) =>
    allowed.includes(other in values ? values[other] : properties[other]?.default ?? null));
}

/** The options that apply to ``seats`` seats and the other options chosen (hidden
 * fields are left to their defaults). */
export function applicableOptions(schema: JsonSchema, seats: number, values: Record<string, unknown>) {
  const properties = schema.properties ?? {};
  return Object.fromEntries(
    Object.entries(values).filter(([name]) => properties[name] && shown(properties[name], seats, schema, values)),
  );
}

export function ConfigForm({ namespace, schema, seats, values, onChange }: Props) {
  const { t } = useTranslation();
  const fields: Field[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!shown(property, seats, schema, values)) continue;
    if (isDeck(property)) {
      fields.push({ name, schema: property, choices: null, nullable: false, deck: true });
      continue;
    }
    const field = describe(name, property);
    if (field) fields.push(field);
  }
  if (fields.length === 0) return null;
  return (
    <div className="config-form">
      {fields.map((field) => {
        const key = `${namespace}.options.${field.name}`;
        const current = field.name in values ? values[field.name] : field.schema.default ?? null;
        if (field.deck) {
          return (
            <DeckPicker
              key={field.name}
              label={t(`${key}.label`, { defaultValue: field.schema.title ?? field.name })}
              help={t(`${key}.help`, { defaultValue: "" })}
              value={typeof current === "string" ? current : "default"}
              fewestCards={(field.schema as Extra)["x-fewest-cards"]}
              onChange={(deck) => onChange({ ...values, [field.name]: deck })}
            />
          );
        }
        const options: unknown[] = field.nullable ? [null, ...(field.choices ?? [])] : (field.choices ?? []);
        return (
          <Field
            key={field.name}
            label={t(`${key}.label`, { defaultValue: field.schema.title ?? field.name })}
            help={t(`${key}.help`, { defaultValue: "" })}
          >
            {({ id, describedBy }) => (
              <select
                id={id}
                aria-describedby={describedBy}
                value={JSON.stringify(current)}
                onChange={(event) => onChange({ ...values, [field.name]: JSON.parse(event.target.value) })}
              >
                {options.map((option) => (
                  <option key={JSON.stringify(option)} value={JSON.stringify(option)}>
                    {t(`${key}.values.${String(option)}`, { defaultValue: option === null ? t("ui.option_default") : String(option) })}
                  </option>
                ))}
              </select>
            )}
          </Field>
        );
      })}
    </div>
  );
}
