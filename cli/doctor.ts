export const help = "todo";
export function run(_a: string[]): Promise<number> {
  return Promise.resolve(1);
}
