type Local = { id: number };
export type { Local };
interface Hidden {
  x: number;
}
export interface Shown extends Hidden {
  y: number;
}
export type Alias = Shown | null;
const v: Alias = { x: 1, y: 2 };
v.x + v.y
