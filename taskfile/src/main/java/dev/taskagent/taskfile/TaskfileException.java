package dev.taskagent.taskfile;

/**
 * The Taskfile cannot be used: it is not valid YAML, it breaks a rule of the format, or it uses a
 * feature outside the supported subset. The message names the line and column.
 */
final class TaskfileException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int line;
    private final int column;

    TaskfileException(Taskfile.Position position, String problem) {
        super(position + ": " + problem);
        this.line = position.line();
        this.column = position.column();
    }

    /** @return the 1-based line of the problem */
    int line() {
        return line;
    }

    /** @return the 1-based column of the problem */
    int column() {
        return column;
    }
}
