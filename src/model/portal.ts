// The operator's words on the portal page (`portal.json` in the source folder, optional): name, intro, how to get a key.
import { z } from "zod";
import { WEB_URL_EXPECTED, webUrl } from "./web-url.js";

const DEFAULT_KEYS_TEXT =
  "The API needs a key: ask the operator of this deployment for one. " +
  "The downloads, the GBFS feeds and the OpenAPI document need no key.";
// Read before the page's own "Ask for a key" link, so it names no other way to ask.
const LINKED_KEYS_TEXT =
  "The API needs a key; the downloads, the GBFS feeds and the OpenAPI document need none.";

const DEFAULT_SERVICE_NAME = "velodata";
const DEFAULT_DESCRIPTION =
  "Open data on public bike-sharing stations and bike parkings: a JSON API, GBFS feeds and downloads.";
const DEFAULT_TEXTS = new Set([
  DEFAULT_SERVICE_NAME,
  DEFAULT_DESCRIPTION,
  DEFAULT_KEYS_TEXT,
  LINKED_KEYS_TEXT,
]);

/**
 * Whether a text of the settings is the operator's own words, not one velodata filled in: only
 * those are in `language` (a screen reader would read the page's own English in French).
 */
export const operatorsWords = (text: string): boolean => !DEFAULT_TEXTS.has(text);

export const PortalSettings = z.strictObject({
  serviceName: z
    .string()
    .min(1)
    .max(80)
    .default(DEFAULT_SERVICE_NAME)
    .describe("Shown as the page's title"),
  description: z.string().min(1).default(DEFAULT_DESCRIPTION),
  keys: z
    .strictObject({
      text: z
        .string()
        .min(1)
        .optional()
        .describe("How a developer obtains an API key, in plain text"),
      url: keysLink()
        .optional()
        .describe("Where to ask for a key: a form, an account page, or mailto: an address"),
    })
    // An operator whose only answer is a form's link need not invent a sentence to go before it.
    .transform(({ text, url }) => ({
      text: text ?? (url === undefined ? DEFAULT_KEYS_TEXT : LINKED_KEYS_TEXT),
      ...(url === undefined ? {} : { url }),
    }))
    .default({ text: DEFAULT_KEYS_TEXT }),
  language: z
    .string()
    .refine(isLanguageTag, 'must be a language tag (BCP 47), e.g. "fr" or "de-CH"')
    .transform((tag) => Intl.getCanonicalLocales(tag)[0] as string)
    .optional()
    .describe(
      "The language of the texts above, when not English (the page's own words are): marked so, for screen readers and translators",
    ),
});
export type PortalSettings = z.infer<typeof PortalSettings>;

/**
 * Whether `tag` is a well-formed language tag, as the runtime's Intl reads them, of a language of
 * two or three letters (ISO 639): BCP 47 also takes five to eight ("French", "english").
 */
function isLanguageTag(tag: string): boolean {
  if (!/^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/i.test(tag)) return false;
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/**
 * Where to ask for a key: a web page (webUrl), or an address to write to as a `mailto:` link, as
 * a city's open-data team often hands keys out by e-mail.
 */
function keysLink() {
  return z.string().superRefine((link, context) => {
    const mail = mailtoAddress(link);
    if (mail === null) {
      for (const { message } of webUrl().safeParse(link).error?.issues ?? [])
        context.addIssue({
          code: "custom",
          message: message === WEB_URL_EXPECTED ? `${message}, or mailto: an address` : message,
        });
    } else if (!z.email().safeParse(mail).success)
      context.addIssue({
        code: "custom",
        message: "must be mailto: and one e-mail address, e.g. mailto:open-data@example.org",
      });
  });
}

/** The address of a `mailto:` link, percent-decoded (as it is where it cannot be); else null. */
export function mailtoAddress(link: string): string | null {
  if (!/^mailto:/i.test(link)) return null;
  const address = link.slice("mailto:".length).split("?")[0] as string;
  try {
    return decodeURIComponent(address);
  } catch {
    return address; // a lone %: no e-mail address, refused so
  }
}

export const DEFAULT_PORTAL: PortalSettings = PortalSettings.parse({});
