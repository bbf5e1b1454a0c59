(input: { n: number } | null): number => {
  const total: number = 1;
  // a typo
  return totl;
}
