type Point = { x: number; y: number };
const points: Point[] = [{ x: 1, y: 2 }, { x: 3, y: 4 }];
const norm = ({ x, y }: Point): number => Math.hypot(x, y);
const [first, ...rest]: Point[] = points;
const { x: fx = 0, y: fy }: Partial<Point> = first;
const sumX = rest.reduce((acc: number, { x }: Point) => acc + x, 0);
({ norms: points.map(norm).map((n) => Math.round(n * 100) / 100), fx, fy, sumX })
