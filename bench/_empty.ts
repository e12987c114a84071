// An empty script: the floor of starting Deno, for bench/cli.ts.
