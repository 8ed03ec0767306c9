import type { ComparePoint } from './ast.js';

export function matches(point: ComparePoint, value: number): boolean {
  switch (point.operator) {
    case '=':
      return value === point.value;
    case '>':
      return value > point.value;
    case '<':
      return value < point.value;
    case '>=':
      return value >= point.value;
    case '<=':
      return value <= point.value;
  }
}

export function matchesAny(points: readonly ComparePoint[], value: number): boolean {
  for (const point of points) if (matches(point, value)) return true;
  return false;
}

export function describeCompare(point: ComparePoint): string {
  return `${point.operator}${point.value}`;
}
