const Status = {
  Active: "active",
  Paused: "paused",
} as const;
type Status = (typeof Status)[keyof typeof Status];
const statuses: Status[] = [Status.Active, Status.Paused, Status.Active];
const counts = statuses.reduce(
  (acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }),
  {} as Partial<Record<Status, number>>,
);
counts
