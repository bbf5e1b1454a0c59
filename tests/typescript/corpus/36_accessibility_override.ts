class Base {
  protected greeting: string = "hello";
  public speak(): string {
    return this.greeting;
  }
}
class Loud extends Base {
  public override speak(): string {
    return super.speak().toUpperCase() + "!";
  }
  protected override greeting = "hey";
}
[new Base().speak(), new Loud().speak()]
