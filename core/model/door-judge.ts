/** What the door checks ask of the checks layer (core/run/door-check.ts), which the spec hands in. */
import type { DoorCase } from './doors.ts';
import type { WatchedAnswer } from './provenance.ts';
import type { RuleId } from './rules.ts';
import type { Violation } from './verdict.ts';

/** The judgment of door cases, handed to core/run by the spec (checks/doors.ts DOOR_JUDGE). */
export interface DoorJudge {
  /** A refused request opened by an input. */
  opened(c: DoorCase): Violation | undefined;
  /** An allowed answer over the cap. */
  cap(c: DoorCase): Violation | undefined;
  /** Records shown where the request may not see them (the watcher's provenance), for a rule whose boundary a record crosses. */
  crossings(answers: readonly WatchedAnswer[], rule: RuleId): { violations: Violation[]; unexercised?: string };
  /** Answers that gave a key back. */
  keyLeaks(answers: readonly WatchedAnswer[]): Violation[];
}
