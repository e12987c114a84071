// Variable expansion in config values: `${VAR}`, `${env:VAR}` and `${VAR:-default}`, the forms
// Claude Code and VS Code document. VS Code's other variable kinds (`${input:id}`,
// `${command:id}`, `${config:key}`) need an editor to answer them, so they are errors here rather
// than being passed to the server as literal text.

/** Why a value could not be expanded. */
export class ExpansionError extends Error {
  /** The variable (or the whole reference, for malformed ones). */
  readonly variable: string;

  constructor(message: string, variable: string) {
    super(message);
    this.name = "ExpansionError";
    this.variable = variable;
  }
}

/** Reads a variable; `undefined` when it is not set. */
export type Lookup = (name: string) => string | undefined;

const REFERENCE = /\$\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Expands every reference in `value`. `predefined` holds VS Code's own variables
 * (`workspaceFolder`, `userHome`, …), used when the environment has no variable of that name.
 */
export function expand(
  value: string,
  lookup: Lookup,
  predefined: Readonly<Record<string, string>>,
): string {
  return value.replace(REFERENCE, (reference: string, body: string) => {
    const split = body.indexOf(":-");
    let name = split === -1 ? body : body.slice(0, split);
    const fallback = split === -1 ? undefined : body.slice(split + 2);
    const explicitEnv = name.startsWith("env:");
    if (explicitEnv) name = name.slice(4);
    const colon = name.indexOf(":");
    if (colon !== -1) {
      const kind = name.slice(0, colon);
      const hint = kind === "input"
        ? "VS Code input variables are not supported; use ${env:NAME} instead"
        : `VS Code "${kind}:" variables are not supported`;
      throw new ExpansionError(`${reference}: ${hint}`, reference);
    }
    if (!NAME.test(name)) {
      throw new ExpansionError(`${reference} is not a valid variable reference`, reference);
    }
    const found = lookup(name);
    // Shell semantics for `:-`: the default applies when the variable is unset or empty.
    if (fallback !== undefined) return found ? found : fallback;
    if (found !== undefined) return found;
    if (!explicitEnv && Object.hasOwn(predefined, name)) return predefined[name]!;
    throw new ExpansionError(`environment variable "${name}" is not set`, name);
  });
}
