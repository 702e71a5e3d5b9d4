/**
 * {@link dev.taskagent.dashboard.TaskDashboard}: the live task board, a page, a JSON API and a stream of
 * server-sent events over a {@code TaskStore}. <p>Tier: API (only {@code TaskDashboard} and its builder are
 * public; everything else is package-private).
 */
package dev.taskagent.dashboard;
