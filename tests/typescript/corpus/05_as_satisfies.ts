type Config = { name: string; retries: number };
const raw: unknown = { name: "svc", retries: 3 };
const config = raw as Config;
const defaults = { name: "default", retries: 1 } satisfies Config;
const levels = ["low", "high"] as const;
const n = (config.retries as number) + defaults.retries;
({ name: config.name, n, levels })
