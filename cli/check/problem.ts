/** One content problem, reported as `file:line: message`. */
export interface Problem {
  file: string;
  line: number;
  message: string;
}

/** Formats a problem the way editors and CI logs link to it. */
export function formatProblem({ file, line, message }: Problem): string {
  return `${file}:${line}: ${message}`;
}
