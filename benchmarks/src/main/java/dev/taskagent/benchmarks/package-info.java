/**
 * JMH benchmarks of taskagent, measured against its performance targets ({@code Targets}, listed in
 * {@code docs/PERFORMANCE.md}) and against the plainest way to do the same work (a hand-written SQL statement, {@code String.split}). Run them with {@code
 * benchmarks/run.sh}; {@link dev.taskagent.benchmarks.Summary} turns the JMH JSON into the tables of
 * {@code docs/PERFORMANCE.md}.
 *
 * <p>Tier: not published; nothing here is API.
 */
package dev.taskagent.benchmarks;
