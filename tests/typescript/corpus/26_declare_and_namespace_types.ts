declare const injected: number | undefined;
declare function helper(x: number): number;
declare namespace Api {
  interface Request {
    id: string;
  }
}
namespace Shapes {
  export interface Circle {
    r: number;
  }
  export type Area = number;
}
const circle: Shapes.Circle = { r: 2 };
const area: Shapes.Area = Math.round(Math.PI * circle.r ** 2);
const req: Api.Request = { id: "x" };
[area, req.id, typeof injected]
