/**
 * Names for fields added next to `taken` ones: a clash gets _2, _3, … compared without case
 * (SQLite and PostgreSQL's folded names both clash so), used alike by the GIS worker's
 * algorithms and their push-down into PostGIS, so both engines name the same fields alike.
 */
export class NameAllocator {
  private readonly used = new Set<string>();

  constructor(taken: Iterable<string> = []) {
    for (const name of taken) this.used.add(name.toLowerCase());
  }

  take(wanted: string): string {
    let name = wanted;
    for (let i = 2; this.used.has(name.toLowerCase()); i++) name = `${wanted}_${i}`;
    this.used.add(name.toLowerCase());
    return name;
  }
}
