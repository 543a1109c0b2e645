// The command line: declarations only. Each action normalises its options and calls one typed command.
import { Command, InvalidArgumentError } from "commander";
import { build } from "./commands/build.js";
import { preview } from "./commands/preview.js";
import { validate } from "./commands/validate.js";
import { UserError } from "./errors.js";

function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65535) {
    throw new InvalidArgumentError("must be a port number from 0 to 65535");
  }
  return number;
}

export function program(): Command {
  const cli = new Command("velodata")
    .description(
      "Publish bike-sharing stations and bike parkings as a static API tree, a bundle and a keyed server.",
    )
    .version("0.1.0")
    .showHelpAfterError();

  cli
    .command("validate")
    .description("check the source data and report every problem; writes nothing")
    .requiredOption(
      "-s, --source <dir>",
      "source folder (contracts.json, stations.json|csv, parkings.json|csv, states.json)",
    )
    .option("--state <file>", "station states file (default: <source>/states.json)")
    .action(async (options: { source: string; state?: string }) => {
      await validate(options);
    });

  cli
    .command("build")
    .description("build the static tree (API answers and downloads) into --out, replacing it whole")
    .requiredOption("-s, --source <dir>", "source folder")
    .option("-o, --out <dir>", "output folder", "out")
    .option("--state <file>", "station states file (default: <source>/states.json)")
    .action(async (options: { source: string; out: string; state?: string }) => {
      await build(options);
    });

  cli
    .command("preview")
    .description("serve a built tree locally the way a static host would")
    .option("-o, --out <dir>", "tree to serve", "out")
    .option("-p, --port <n>", "port", port, 8080)
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .action(async (options: { out: string; port: number; host: string }) => {
      await preview(options);
    });

  return cli;
}

/** The one place errors become exit codes: user errors print plainly, anything else is a bug. */
export async function main(argv: readonly string[]): Promise<void> {
  try {
    await program().parseAsync(argv);
  } catch (cause) {
    if (cause instanceof UserError) {
      process.stderr.write(`velodata: ${cause.message}\n`);
      for (const line of cause.details) process.stderr.write(`  ${line}\n`);
    } else {
      const message = cause instanceof Error ? cause.message : String(cause);
      process.stderr.write(
        `velodata: internal error (this is a bug in velodata, please report it): ${message}\n`,
      );
      if (process.env.VELODATA_DEBUG && cause instanceof Error)
        process.stderr.write(`${cause.stack}\n`);
    }
    process.exitCode = 1;
  }
}
