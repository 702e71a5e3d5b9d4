package dev.taskagent.examples;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the flagship demo's output the way a user does: which tasks it announced (created, or carried over
 * from an earlier run) and which tasks each task board shows.
 *
 * <p>Thread-safe (stateless).
 */
final class DemoOutput {
    private static final Pattern ANNOUNCED = Pattern.compile("^\\s+(?:created|carried over) #(\\d+) \\[");
    private static final Pattern CREATED = Pattern.compile("^\\s+created #(\\d+) \\[");
    private static final Pattern BOARD_START = Pattern.compile("^┌─ Task board: (.*)$");
    private static final Pattern BOARD_TASK = Pattern.compile("^│  #(\\d+) \\[");
    private static final Pattern QUEUE = Pattern.compile("^│  queue of \\S+: (.*)$");
    private static final Pattern QUEUE_ENTRY = Pattern.compile("#(\\d+) (?:pending|running|success|failed) ");

    private DemoOutput() {}

    /**
     * Lists each task a board shows before the output announced it.
     *
     * @param output the demo's standard output
     * @return one line per offence, e.g. {@code "board 'after the hand-over' shows #2, announced: [1]"};
     *     empty when every task on every board was announced first
     */
    static List<String> tasksOnABoardBeforeTheirAnnouncement(String output) {
        List<String> offences = new ArrayList<>();
        Set<Long> announced = new HashSet<>();
        String board = null;
        for (String line : output.lines().toList()) {
            Matcher announcement = ANNOUNCED.matcher(line);
            Matcher start = BOARD_START.matcher(line);
            if (announcement.find()) {
                announced.add(Long.parseLong(announcement.group(1)));
            } else if (start.matches()) {
                board = start.group(1);
            } else if (line.startsWith("└─")) {
                board = null;
            } else if (board != null) {
                for (long id : tasksOnBoardLine(line)) {
                    if (!announced.contains(id)) {
                        offences.add("board '" + board + "' shows #" + id + ", announced: " + announced);
                    }
                }
            }
        }
        return offences;
    }

    /**
     * Counts the task boards.
     *
     * @param output the demo's standard output
     * @return how many boards it printed
     */
    static long boards(String output) {
        return output.lines()
                .filter(line -> BOARD_START.matcher(line).matches())
                .count();
    }

    /**
     * Lists the ids of the tasks the output announced as created.
     *
     * @param output the demo's standard output
     * @return the ids, in order
     */
    static List<Long> created(String output) {
        return output.lines()
                .map(CREATED::matcher)
                .filter(Matcher::find)
                .map(matcher -> Long.parseLong(matcher.group(1)))
                .toList();
    }

    private static List<Long> tasksOnBoardLine(String line) {
        List<Long> ids = new ArrayList<>();
        Matcher task = BOARD_TASK.matcher(line);
        Matcher queue = QUEUE.matcher(line);
        if (task.find()) {
            ids.add(Long.parseLong(task.group(1)));
        } else if (queue.matches()) {
            Matcher entry = QUEUE_ENTRY.matcher(queue.group(1));
            while (entry.find()) {
                ids.add(Long.parseLong(entry.group(1)));
            }
        }
        return ids;
    }
}
