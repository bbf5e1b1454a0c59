// expect: {"result":"Edsger Dijkstra"}
type Id = string;
interface Named { name: string }
declare function neverCalled(x: number): void;
type Maybe<T> = T | null;

const { customers } = await codemode.crm.listCustomers({ tier: "bronze" });
const first: Maybe<Named & { id: Id }> = customers[0] ?? null;
return first?.name ?? null;
