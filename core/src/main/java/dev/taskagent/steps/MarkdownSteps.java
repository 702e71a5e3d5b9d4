package dev.taskagent.steps;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A task's steps: a Markdown document whose GitHub-flavoured task-list items are the steps.
 *
 * <pre>{@code
 * - [ ] Research family-friendly attractions in Bangkok for kids 5 & 3
 * - [ ] Send the list to Hanan on WhatsApp
 * }</pre>
 *
 * <p><b>What is a step.</b> A list item (bullet {@code -}, {@code *}, {@code +}, or ordered {@code 1.} /
 * {@code 1)} with 1 to 9 digits) followed by a space or a tab, then, on the same line, a box {@code [ ]}
 * (unchecked), {@code [x]} or {@code [X]} (checked), then whitespace (a space, a tab, a form feed or a
 * vertical tab) and a description that is not blank. Nested items are steps too. Steps are numbered 1..n in
 * document order across all depths. The step's text is the rest of the box's line, stripped.
 *
 * <p><b>What is not a step.</b> The document is read with the block structure of GitHub-flavoured Markdown,
 * so a box that GitHub would show as text is no step: lines inside fenced code ({@code ```} or {@code
 * ~~~}; closed only by a fence of the same character, at least as long, indented less than four columns;
 * an unclosed fence runs to the end of its list item or block quote, else of the document), inside HTML
 * blocks (comments, {@code <details>}, {@code <div>}, {@code <pre>} and the other block-level tags, a line
 * of one complete tag) and indented code; the continuation lines of a paragraph (so {@code 2. [ ] x} right
 * under a line of text is text: only an item numbered 1 may interrupt a paragraph); an item underlined
 * into a heading by {@code ---} or {@code ===}. Not steps either, by choice: items inside block quotes
 * (a quoted plan is not the task's), malformed boxes ({@code [-]}, {@code [  ]}, a tab inside the box),
 * a box with a blank description, a missing space after the list marker or after the box, and a box on
 * the line below its list marker. Line endings may be LF, CRLF or CR; a leading byte order mark is
 * skipped.
 *
 * <p><b>Updating.</b> {@link #markDone(int)} and {@link #markUndone(int)} return a new instance whose
 * document differs from this one in exactly one character (the one inside the box); line endings, a
 * missing final newline, trailing spaces, a byte order mark and any non-ASCII text stay as they were.
 * Marking a checked step done, or an unchecked step undone, returns this instance unchanged.
 *
 * <p><b>Cost.</b> Parsing is one pass over the document, linear in its length whatever the number of
 * steps, their length or their nesting. Every {@link Step} knows the offset of its box, so updating a
 * step finds its character at once and costs one copy of the document.
 *
 * <p>Immutable and thread-safe.
 */
public final class MarkdownSteps {
    private final String document;
    private final List<Step> steps;
    private final int doneCount;

    private MarkdownSteps(String document, List<Step> steps, int doneCount) {
        this.document = document;
        this.steps = steps;
        this.doneCount = doneCount;
    }

    /**
     * Parses a Markdown document and finds its steps.
     *
     * @param document the document; any text, possibly without steps
     * @return the parsed document
     * @throws NullPointerException if {@code document} is null
     */
    public static MarkdownSteps parse(String document) {
        Objects.requireNonNull(document, "document");
        return new Parser(document).parse();
    }

    /**
     * Writes a checklist with one unchecked top-level step per text, one per line ({@code - [ ] text}
     * followed by a line feed). Line breaks inside a text are replaced by spaces and the text is trimmed,
     * so that each text stays one step.
     *
     * @param stepTexts the steps' descriptions, in order; at least one, none blank
     * @return the checklist, parsed; it has exactly {@code stepTexts.size()} steps
     * @throws NullPointerException if the list or one of its texts is null
     * @throws IllegalArgumentException if the list is empty or a text is blank
     */
    public static MarkdownSteps checklist(List<String> stepTexts) {
        Objects.requireNonNull(stepTexts, "stepTexts");
        if (stepTexts.isEmpty()) {
            throw new IllegalArgumentException("A checklist needs at least one step; the list of step texts is empty");
        }
        StringBuilder document = new StringBuilder();
        for (int i = 0; i < stepTexts.size(); i++) {
            String text = Objects.requireNonNull(stepTexts.get(i), "step text " + (i + 1));
            String oneLine = text.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
            if (oneLine.isEmpty()) {
                throw new IllegalArgumentException(
                        "Step " + (i + 1) + " of " + stepTexts.size() + " is blank; give every step a description");
            }
            document.append("- [ ] ").append(oneLine).append('\n');
        }
        return parse(document.toString());
    }

    /** @return the document, exactly as parsed or updated */
    public String document() {
        return document;
    }

    /** @return the steps in document order, step 1 first; empty when the document has none */
    public List<Step> steps() {
        return steps;
    }

    /** @return the number of steps */
    public int total() {
        return steps.size();
    }

    /** @return the number of checked steps */
    public int done() {
        return doneCount;
    }

    /** @return true when the document has no step */
    public boolean isEmpty() {
        return steps.isEmpty();
    }

    /** @return true when the document has steps and every one is checked */
    public boolean allDone() {
        return !steps.isEmpty() && doneCount == steps.size();
    }

    /**
     * Returns one step.
     *
     * @param number the step's number, 1..{@link #total()}
     * @return the step
     * @throws IllegalArgumentException if there is no step with that number
     */
    public Step step(int number) {
        checkNumber(number);
        return steps.get(number - 1);
    }

    /**
     * Tells whether a step with this number exists.
     *
     * @param number any number
     * @return true when {@code number} is within 1..{@link #total()}
     */
    public boolean hasStep(int number) {
        return number >= 1 && number <= steps.size();
    }

    /**
     * Finds the first step that is not checked, in document order.
     *
     * @return the step, or empty when every step is checked or there is none
     */
    public Optional<Step> firstUnchecked() {
        if (doneCount == steps.size()) {
            return Optional.empty();
        }
        for (Step step : steps) {
            if (!step.checked()) {
                return Optional.of(step);
            }
        }
        return Optional.empty();
    }

    /** @return the steps that are not checked, in document order */
    public List<Step> unchecked() {
        List<Step> result = new ArrayList<>(steps.size() - doneCount);
        for (Step step : steps) {
            if (!step.checked()) {
                result.add(step);
            }
        }
        return Collections.unmodifiableList(result);
    }

    /**
     * Ticks a step: {@code [ ]} becomes {@code [x]}; nothing else of the document changes.
     *
     * @param number the step's number, 1..{@link #total()}
     * @return the updated document, or this instance when the step is already checked
     * @throws IllegalArgumentException if there is no step with that number
     */
    public MarkdownSteps markDone(int number) {
        return mark(number, true);
    }

    /**
     * Unticks a step: {@code [x]} or {@code [X]} becomes {@code [ ]}; nothing else of the document changes.
     *
     * @param number the step's number, 1..{@link #total()}
     * @return the updated document, or this instance when the step is not checked
     * @throws IllegalArgumentException if there is no step with that number
     */
    public MarkdownSteps markUndone(int number) {
        return mark(number, false);
    }

    private MarkdownSteps mark(int number, boolean checked) {
        Step step = step(number);
        if (step.checked() == checked) {
            return this;
        }
        // A StringBuilder keeps the document's compact (Latin-1) form where toCharArray() would widen it.
        StringBuilder updatedDocument = new StringBuilder(document);
        updatedDocument.setCharAt(step.boxOffset() + 1, checked ? 'x' : ' ');
        List<Step> updated = new ArrayList<>(steps);
        updated.set(number - 1, step.withChecked(checked));
        return new MarkdownSteps(
                updatedDocument.toString(), Collections.unmodifiableList(updated), doneCount + (checked ? 1 : -1));
    }

    /**
     * Renders the steps for a model's prompt, one per line with its number and box, nested steps
     * indented by three spaces per depth. The numbers are those the {@code ✓ STEP n:} markers use.
     *
     * <pre>
     * 1. [x] Research family-friendly attractions in Bangkok for kids 5 &amp; 3
     * 2. [ ] Send the list to Hanan on WhatsApp
     * </pre>
     *
     * @return the rendering, each line ending with a line feed; empty when there are no steps
     */
    public String renderForPrompt() {
        StringBuilder out = new StringBuilder();
        for (Step step : steps) {
            out.append("   ".repeat(step.depth()))
                    .append(step.number())
                    .append(step.checked() ? ". [x] " : ". [ ] ")
                    .append(step.text())
                    .append('\n');
        }
        return out.toString();
    }

    /**
     * Describes the progress in the form task listings show.
     *
     * @return for example {@code Steps 1/2}
     */
    public String progressLabel() {
        return "Steps " + doneCount + "/" + steps.size();
    }

    private void checkNumber(int number) {
        if (!hasStep(number)) {
            throw new IllegalArgumentException(
                    steps.isEmpty()
                            ? "There is no step " + number + ": the document has no steps"
                            : "There is no step " + number + ": the document has " + steps.size() + " steps (1.."
                                    + steps.size() + ")");
        }
    }

    /** Two instances are equal when their documents are. */
    @Override
    public boolean equals(Object other) {
        return other instanceof MarkdownSteps that && document.equals(that.document);
    }

    @Override
    public int hashCode() {
        return document.hashCode();
    }

    @Override
    public String toString() {
        return "MarkdownSteps[" + doneCount + "/" + steps.size() + " done, " + document.length() + " chars]";
    }

    /**
     * One pass over the document, line by line, with the block structure of CommonMark as GitHub reads it:
     * the containers (list items and block quotes) that a line continues, lazily continues or ends, and the
     * leaf blocks (paragraphs, fenced and indented code, HTML blocks, headings, thematic breaks) that
     * decide whether the first line of an item's first paragraph starts with a box. Positions within a line
     * are tracked in columns, with tab stops of 4 and tabs that a container may consume in part, as the
     * CommonMark specification counts them. Work per line is linear in the line's length, whatever the
     * nesting: a blank line finds the containers it ends by a binary search over the open block quotes.
     */
    private static final class Parser {
        private static final int CODE_INDENT = 4;

        private static final byte ITEM = 0;
        private static final byte QUOTE = 1;

        private static final int NONE = 0;
        private static final int PARAGRAPH = 1;
        private static final int FENCED_CODE = 2;
        private static final int INDENTED_CODE = 3;
        private static final int HTML = 4;

        /** HTML block type 1: raw text elements, ended by their closing tag. */
        private static final String[] RAW_TEXT_TAGS = {"pre", "script", "style", "textarea"};

        /** HTML block type 6: block-level tags, ended by a blank line. */
        private static final Set<String> BLOCK_TAGS = Set.of(("address article aside base basefont blockquote body"
                        + " caption center col colgroup dd details dialog dir div dl dt fieldset figcaption figure"
                        + " footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link"
                        + " main menu menuitem nav noframes ol optgroup option p param search section summary"
                        + " table tbody td tfoot th thead title tr track ul")
                .split(" "));

        private final String doc;
        private final int length;

        private final List<Step> steps = new ArrayList<>();
        private int done;

        // The line being read.
        private int lineNumber;
        private int lineEnd;

        // The position in the line: an index, and the column it stands for. When a container consumed part
        // of a tab, the index stays on the tab and the column is within it.
        private int index;
        private int column;

        // The first character from the position on that is neither a space nor a tab; -1 until found.
        private int nextNonSpace;
        private int nextNonSpaceColumn;
        private int indent;
        private boolean blank;

        // The open containers, outermost first.
        private byte[] kinds = new byte[8];
        /** For a list item: the columns its content is indented by, from where its container's content starts. */
        private int[] contentIndents = new int[8];
        /** For a list item: whether it holds a block yet; an item without one ends at a blank line. */
        private boolean[] hasChild = new boolean[8];
        /** The line a container started on: a step's box is on its list marker's line. */
        private int[] startLines = new int[8];

        private int containers;
        /** How many of the open containers the current line continues, or started. */
        private int matched;

        private int openItems;
        /** Where the open block quotes stand among the containers, in increasing order. */
        private int[] quotes = new int[4];

        private int openQuotes;

        // The open leaf block: the last child of the innermost container.
        private int leaf = NONE;
        private boolean leafMatched;
        private char fenceChar;
        private int fenceLength;
        private int htmlType;
        /** True when the open paragraph is a step, whose first line a setext underline may still turn into a heading. */
        private boolean paragraphIsStep;

        // A failed look for a thematic break of one character on this line: the start and the first foreign
        // character found, so that a line of many list markers is not scanned again and again.
        private final int[] thematicScanStart = new int[3];
        private final int[] thematicForeign = new int[3];

        Parser(String doc) {
            this.doc = doc;
            this.length = doc.length();
        }

        MarkdownSteps parse() {
            int position = length > 0 && doc.charAt(0) == '\uFEFF' ? 1 : 0;
            boolean onlyLineFeeds = doc.indexOf('\r') < 0;
            while (position < length) {
                int end = onlyLineFeeds ? doc.indexOf('\n', position) : lineEnd(position);
                if (end < 0) {
                    end = length;
                }
                lineNumber++;
                line(position, end);
                if (end == length) {
                    break;
                }
                position =
                        doc.charAt(end) == '\r' && end + 1 < length && doc.charAt(end + 1) == '\n' ? end + 2 : end + 1;
            }
            return new MarkdownSteps(doc, Collections.unmodifiableList(steps), done);
        }

        /** Finds the end of a line that may end with CR, CRLF or LF. */
        private int lineEnd(int from) {
            for (int i = from; i < length; i++) {
                char c = doc.charAt(i);
                if (c == '\n' || c == '\r') {
                    return i;
                }
            }
            return length;
        }

        private void line(int start, int end) {
            lineEnd = end;
            index = start;
            column = 0;
            nextNonSpace = -1;
            leafMatched = false;
            Arrays.fill(thematicScanStart, Integer.MAX_VALUE);
            continueContainers();
            if (matched == containers && leaf != NONE && continueLeaf()) {
                return;
            }
            startBlocks();
        }

        /** Walks the open containers and counts those the line continues, consuming their markers. */
        private void continueContainers() {
            matched = 0;
            while (matched < containers) {
                findNextNonSpace();
                if (blank) {
                    matched = containersContinuedByABlankRest(matched);
                    return;
                }
                if (kinds[matched] == QUOTE) {
                    if (indent >= CODE_INDENT || doc.charAt(nextNonSpace) != '>') {
                        return;
                    }
                    setNewColumn(columnAfterQuoteMarker());
                } else {
                    if (indent < contentIndents[matched]) {
                        return;
                    }
                    setNewColumn(column + contentIndents[matched]);
                }
                matched++;
            }
        }

        /**
         * A blank rest of a line continues the list items that hold a block and ends the first block quote;
         * an item without a block yet ends too (a list item can begin with at most one blank line).
         */
        private int containersContinuedByABlankRest(int from) {
            int continued = containers;
            int low = 0;
            int high = openQuotes;
            while (low < high) {
                int middle = (low + high) >>> 1;
                if (quotes[middle] < from) {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            if (low < openQuotes) {
                continued = quotes[low];
            } else if (!hasChild[containers - 1]) {
                continued = containers - 1; // the innermost container is an item, and it is empty
            }
            return continued;
        }

        /**
         * Continues the open leaf block with a line whose containers all continue.
         *
         * @return true when the line belongs to the leaf (a line of code or HTML, a closing fence)
         */
        private boolean continueLeaf() {
            findNextNonSpace();
            switch (leaf) {
                case FENCED_CODE -> {
                    if (indent < CODE_INDENT && !blank && closesFence()) {
                        leaf = NONE;
                    }
                    return true;
                }
                case INDENTED_CODE -> {
                    return indent >= CODE_INDENT || blank;
                }
                case HTML -> {
                    if (blank && htmlType >= 6) {
                        return false;
                    }
                    if (endsHtmlBlock(index)) {
                        leaf = NONE;
                    }
                    return true;
                }
                default -> {
                    leafMatched = !blank; // a paragraph; block starts may still interrupt it
                    return false;
                }
            }
        }

        /** Opens the containers and the leaf that start on this line, or continues the open paragraph. */
        private void startBlocks() {
            boolean startedNewBlock = false;
            boolean paragraphMatched = leafMatched;
            while (true) {
                findNextNonSpace();
                if (blank) {
                    break;
                }
                char c = doc.charAt(nextNonSpace);
                if (indent >= CODE_INDENT) {
                    if (leaf == PARAGRAPH) {
                        break; // indented code cannot interrupt a paragraph
                    }
                    openLeaf(INDENTED_CODE);
                    return;
                }
                if (isAsciiLetter(c)) {
                    break; // no block starts with a letter
                }
                if (c == '>') {
                    closeUnmatched();
                    int afterMarker = columnAfterQuoteMarker();
                    push(QUOTE, 0);
                    setNewColumn(afterMarker);
                } else if (c == '#' && isAtxHeading()) {
                    openLeaf(NONE);
                    return;
                } else if (paragraphMatched && isSetextUnderline()) {
                    turnParagraphIntoHeading();
                    return;
                } else if ((c == '`' || c == '~') && opensFence()) {
                    return;
                } else if (c == '<' && opensHtmlBlock(paragraphMatched || leaf == PARAGRAPH)) {
                    return;
                } else if ((c == '-' || c == '*' || c == '_') && isThematicBreak()) {
                    openLeaf(NONE);
                    return;
                } else {
                    int contentColumn = listItemContentColumn(paragraphMatched);
                    if (contentColumn < 0) {
                        break;
                    }
                    closeUnmatched();
                    push(ITEM, contentColumn - column);
                    setNewColumn(contentColumn);
                }
                startedNewBlock = true;
                paragraphMatched = false;
            }
            if (!startedNewBlock && !blank && leaf == PARAGRAPH) {
                return; // the paragraph goes on, lazily when not all its containers continue
            }
            closeUnmatched();
            if (!blank) {
                openParagraph();
            }
        }

        private void openParagraph() {
            int item = containers - 1;
            boolean startsAnItem = item >= 0
                    && kinds[item] == ITEM
                    && !hasChild[item]
                    && startLines[item] == lineNumber
                    && openQuotes == 0;
            openLeaf(PARAGRAPH);
            paragraphIsStep = startsAnItem && readStep(nextNonSpace);
        }

        /**
         * Reads a step from the first line of an item's first paragraph: a box, whitespace, a description.
         *
         * @return true when the line holds a step
         */
        private boolean readStep(int box) {
            if (box + 3 >= lineEnd || doc.charAt(box) != '[' || doc.charAt(box + 2) != ']') {
                return false;
            }
            char state = doc.charAt(box + 1);
            if ((state != ' ' && state != 'x' && state != 'X') || !isWhitespace(doc.charAt(box + 3))) {
                return false;
            }
            String text = doc.substring(box + 4, lineEnd).strip();
            if (text.isEmpty()) {
                return false;
            }
            boolean checked = state != ' ';
            steps.add(new Step(steps.size() + 1, text, checked, openItems - 1, lineNumber, box));
            if (checked) {
                done++;
            }
            return true;
        }

        /** A setext underline makes the paragraph above it a heading: a step it held is no step after all. */
        private void turnParagraphIntoHeading() {
            if (paragraphIsStep) {
                Step step = steps.remove(steps.size() - 1);
                if (step.checked()) {
                    done--;
                }
            }
            leaf = NONE;
            paragraphIsStep = false;
        }

        /** Closes the containers the line does not continue, and the open leaf. */
        private void closeUnmatched() {
            while (containers > matched) {
                containers--;
                if (kinds[containers] == ITEM) {
                    openItems--;
                } else {
                    openQuotes--;
                }
            }
            leaf = NONE;
            paragraphIsStep = false;
        }

        private void openLeaf(int kind) {
            closeUnmatched();
            if (containers > 0) {
                hasChild[containers - 1] = true;
            }
            leaf = kind;
        }

        private void push(byte kind, int contentIndent) {
            if (containers == kinds.length) {
                kinds = Arrays.copyOf(kinds, containers * 2);
                contentIndents = Arrays.copyOf(contentIndents, containers * 2);
                hasChild = Arrays.copyOf(hasChild, containers * 2);
                startLines = Arrays.copyOf(startLines, containers * 2);
            }
            if (containers > 0) {
                hasChild[containers - 1] = true;
            }
            kinds[containers] = kind;
            contentIndents[containers] = contentIndent;
            hasChild[containers] = false;
            startLines[containers] = lineNumber;
            if (kind == ITEM) {
                openItems++;
            } else {
                if (openQuotes == quotes.length) {
                    quotes = Arrays.copyOf(quotes, openQuotes * 2);
                }
                quotes[openQuotes++] = containers;
            }
            containers++;
            matched = containers;
        }

        // Positions, as CommonMark's reference implementations track them.

        private void findNextNonSpace() {
            if (nextNonSpace < index) {
                int i = index;
                int columns = column;
                while (i < lineEnd) {
                    char c = doc.charAt(i);
                    if (c == ' ') {
                        columns++;
                    } else if (c == '\t') {
                        columns += 4 - columns % 4;
                    } else {
                        break;
                    }
                    i++;
                }
                nextNonSpace = i;
                nextNonSpaceColumn = columns;
                blank = i == lineEnd;
            }
            indent = nextNonSpaceColumn - column;
        }

        private void setNewColumn(int newColumn) {
            if (newColumn >= nextNonSpaceColumn) {
                index = nextNonSpace;
                column = nextNonSpaceColumn;
            }
            while (column < newColumn && index != lineEnd) {
                column = doc.charAt(index) == '\t' ? column + 4 - column % 4 : column + 1;
                index++;
            }
            if (column > newColumn) {
                index--; // a tab, consumed in part
                column = newColumn;
            }
        }

        /** After {@code >}, a space or (part of) a tab belongs to the marker. */
        private int columnAfterQuoteMarker() {
            int after = nextNonSpaceColumn + 1;
            return nextNonSpace + 1 < lineEnd && isSpaceOrTab(doc.charAt(nextNonSpace + 1)) ? after + 1 : after;
        }

        // Block starts. Each looks at the line from nextNonSpace, indented less than 4 columns.

        private boolean isAtxHeading() {
            int j = nextNonSpace;
            while (j < lineEnd && doc.charAt(j) == '#') {
                j++;
            }
            int level = j - nextNonSpace;
            return level <= 6 && (j == lineEnd || isSpaceOrTab(doc.charAt(j)));
        }

        private boolean isSetextUnderline() {
            char c = doc.charAt(nextNonSpace);
            if (c != '=' && c != '-') {
                return false;
            }
            int j = nextNonSpace;
            while (j < lineEnd && doc.charAt(j) == c) {
                j++;
            }
            while (j < lineEnd && isSpaceOrTab(doc.charAt(j))) {
                j++;
            }
            return j == lineEnd;
        }

        /** Opens a fence of three or more backticks (with no backtick after them) or tildes. */
        private boolean opensFence() {
            int backticks = 0;
            int tildes = 0;
            int j = nextNonSpace;
            for (; j < lineEnd; j++) {
                char c = doc.charAt(j);
                if (c == '`') {
                    backticks++;
                } else if (c == '~') {
                    tildes++;
                } else {
                    break;
                }
            }
            boolean backtickFence = backticks >= 3 && tildes == 0;
            if (!(backtickFence || (tildes >= 3 && backticks == 0))) {
                return false;
            }
            for (int k = j; backtickFence && k < lineEnd; k++) {
                if (doc.charAt(k) == '`') {
                    return false; // inline code, not a fence
                }
            }
            openLeaf(FENCED_CODE);
            fenceChar = backtickFence ? '`' : '~';
            fenceLength = backtickFence ? backticks : tildes;
            return true;
        }

        /** A closing fence: the fence's character, at least as many times, then only spaces and tabs. */
        private boolean closesFence() {
            int j = nextNonSpace;
            while (j < lineEnd && doc.charAt(j) == fenceChar) {
                j++;
            }
            if (j - nextNonSpace < fenceLength) {
                return false;
            }
            while (j < lineEnd && isSpaceOrTab(doc.charAt(j))) {
                j++;
            }
            return j == lineEnd;
        }

        /**
         * Opens an HTML block of one of CommonMark's seven kinds, the last of which (a line of one complete
         * tag of any name) cannot interrupt a paragraph.
         */
        private boolean opensHtmlBlock(boolean paragraphOpen) {
            int type = htmlBlockType(nextNonSpace, paragraphOpen);
            if (type == 0) {
                return false;
            }
            openLeaf(HTML);
            htmlType = type;
            if (endsHtmlBlock(index)) {
                leaf = NONE;
            }
            return true;
        }

        private int htmlBlockType(int at, boolean paragraphOpen) {
            int nameStart = at + 1;
            if (nameStart >= lineEnd) {
                return 0;
            }
            char first = doc.charAt(nameStart);
            if (first == '!') {
                if (doc.startsWith("--", at + 2)) {
                    return 2;
                }
                if (at + 2 < lineEnd && doc.charAt(at + 2) >= 'A' && doc.charAt(at + 2) <= 'Z') {
                    return 4;
                }
                return doc.startsWith("[CDATA[", at + 2) ? 5 : 0;
            }
            if (first == '?') {
                return 3;
            }
            boolean closing = first == '/';
            int nameEnd = closing ? nameStart + 1 : nameStart;
            while (nameEnd < lineEnd && isAsciiLetterOrDigit(doc.charAt(nameEnd))) {
                nameEnd++;
            }
            String name =
                    doc.substring(closing ? nameStart + 1 : nameStart, nameEnd).toLowerCase(Locale.ROOT);
            if (!closing
                    && isRawTextTag(name)
                    && (nameEnd == lineEnd || doc.charAt(nameEnd) == '>' || isWhitespace(doc.charAt(nameEnd)))) {
                return 1;
            }
            if (BLOCK_TAGS.contains(name)
                    && (nameEnd == lineEnd
                            || doc.charAt(nameEnd) == '>'
                            || doc.startsWith("/>", nameEnd)
                            || isWhitespace(doc.charAt(nameEnd)))) {
                return 6;
            }
            return !paragraphOpen && isCompleteTagLine(at) ? 7 : 0;
        }

        private static boolean isRawTextTag(String name) {
            for (String tag : RAW_TEXT_TAGS) {
                if (tag.equals(name)) {
                    return true;
                }
            }
            return false;
        }

        /** Tells whether the line holds, from {@code at}, one complete open or closing tag and then only whitespace. */
        private boolean isCompleteTagLine(int at) {
            int j;
            if (doc.charAt(at + 1) == '/') {
                j = tagName(at + 2);
                if (j < 0) {
                    return false;
                }
                j = skipWhitespace(j);
            } else {
                j = tagName(at + 1);
                if (j < 0) {
                    return false;
                }
                while (true) {
                    int name = skipWhitespace(j);
                    int afterName = name > j ? attributeName(name) : -1;
                    if (afterName < 0) {
                        break;
                    }
                    int afterValue = attributeValueSpecification(afterName);
                    j = afterValue < 0 ? afterName : afterValue;
                }
                j = skipWhitespace(j);
                if (j < lineEnd && doc.charAt(j) == '/') {
                    j++;
                }
            }
            if (j >= lineEnd || doc.charAt(j) != '>') {
                return false;
            }
            return skipWhitespace(j + 1) == lineEnd;
        }

        private int tagName(int from) {
            if (from >= lineEnd || !isAsciiLetter(doc.charAt(from))) {
                return -1;
            }
            int j = from + 1;
            while (j < lineEnd && (isAsciiLetterOrDigit(doc.charAt(j)) || doc.charAt(j) == '-')) {
                j++;
            }
            return j;
        }

        private int attributeName(int from) {
            char c = from < lineEnd ? doc.charAt(from) : 0;
            if (!(isAsciiLetter(c) || c == '_' || c == ':')) {
                return -1;
            }
            int j = from + 1;
            while (j < lineEnd) {
                char d = doc.charAt(j);
                if (!(isAsciiLetterOrDigit(d) || d == ':' || d == '.' || d == '_' || d == '-')) {
                    break;
                }
                j++;
            }
            return j;
        }

        /** Reads {@code = value} after an attribute's name, with optional whitespace around the {@code =}. */
        private int attributeValueSpecification(int from) {
            int j = skipWhitespace(from);
            if (j >= lineEnd || doc.charAt(j) != '=') {
                return -1;
            }
            j = skipWhitespace(j + 1);
            if (j >= lineEnd) {
                return -1;
            }
            char quote = doc.charAt(j);
            if (quote == '"' || quote == '\'') {
                int close = doc.indexOf(quote, j + 1);
                return close < 0 || close >= lineEnd ? -1 : close + 1;
            }
            int start = j;
            while (j < lineEnd && "\"'=<>`".indexOf(doc.charAt(j)) < 0 && doc.charAt(j) > ' ') {
                j++;
            }
            return j > start ? j : -1;
        }

        private int skipWhitespace(int from) {
            int j = from;
            while (j < lineEnd && isWhitespace(doc.charAt(j))) {
                j++;
            }
            return j;
        }

        /** Tells whether the line, from {@code from}, holds the end condition of the open HTML block. */
        private boolean endsHtmlBlock(int from) {
            return switch (htmlType) {
                case 1 -> closesRawText(from);
                case 2 -> contains(from, "-->");
                case 3 -> contains(from, "?>");
                case 4 -> contains(from, ">");
                case 5 -> contains(from, "]]>");
                default -> false; // types 6 and 7 end at a blank line
            };
        }

        private boolean closesRawText(int from) {
            for (int i = from; i + 2 < lineEnd; i++) {
                if (doc.charAt(i) == '<' && doc.charAt(i + 1) == '/') {
                    for (String tag : RAW_TEXT_TAGS) {
                        int end = i + 2 + tag.length();
                        if (end < lineEnd
                                && doc.regionMatches(true, i + 2, tag, 0, tag.length())
                                && doc.charAt(end) == '>') {
                            return true;
                        }
                    }
                }
            }
            return false;
        }

        /**
         * A thematic break: three or more of one of {@code - * _}, with only spaces and tabs between them. A
         * failed look is remembered, so that a line of many list markers costs one scan, not one per marker.
         */
        private boolean isThematicBreak() {
            char c = doc.charAt(nextNonSpace);
            int slot = c == '-' ? 0 : c == '*' ? 1 : 2;
            if (nextNonSpace >= thematicScanStart[slot] && nextNonSpace < thematicForeign[slot]) {
                return false;
            }
            int count = 0;
            int j = nextNonSpace;
            for (; j < lineEnd; j++) {
                char d = doc.charAt(j);
                if (d == c) {
                    count++;
                } else if (!isSpaceOrTab(d)) {
                    break;
                }
            }
            if (j == lineEnd && count >= 3) {
                return true;
            }
            thematicScanStart[slot] = nextNonSpace;
            thematicForeign[slot] = j == lineEnd ? Integer.MAX_VALUE : j;
            return false;
        }

        /**
         * Reads a list marker: {@code -}, {@code +}, {@code *}, or 1 to 9 digits and {@code .} or {@code )},
         * followed by a space, a tab or the end of the line.
         *
         * @param paragraphMatched true when the line could continue a paragraph, which only an item that is
         *     not empty and, when ordered, numbered 1 may interrupt
         * @return the column where the item's content starts, or -1 when there is no list item here
         */
        private int listItemContentColumn(boolean paragraphMatched) {
            int at = nextNonSpace;
            char c = doc.charAt(at);
            int afterMarker;
            boolean numberedOtherThanOne = false;
            if (c == '-' || c == '+' || c == '*') {
                afterMarker = at + 1;
            } else {
                int j = at;
                int number = 0;
                while (j < lineEnd && j - at < 10 && isDigit(doc.charAt(j))) {
                    number = number * 10 + doc.charAt(j) - '0';
                    j++;
                }
                int digits = j - at;
                if (digits < 1 || digits > 9 || j == lineEnd || (doc.charAt(j) != '.' && doc.charAt(j) != ')')) {
                    return -1;
                }
                afterMarker = j + 1;
                numberedOtherThanOne = number != 1;
            }
            if (afterMarker < lineEnd && !isSpaceOrTab(doc.charAt(afterMarker))) {
                return -1;
            }
            int columnAfterMarker = nextNonSpaceColumn + (afterMarker - at);
            int contentColumn = columnAfterMarker;
            int j = afterMarker;
            while (j < lineEnd && isSpaceOrTab(doc.charAt(j))) {
                contentColumn = doc.charAt(j) == '\t' ? contentColumn + 4 - contentColumn % 4 : contentColumn + 1;
                j++;
            }
            boolean hasContent = j < lineEnd;
            if (paragraphMatched && (numberedOtherThanOne || !hasContent)) {
                return -1;
            }
            if (!hasContent || contentColumn - columnAfterMarker > CODE_INDENT) {
                contentColumn = columnAfterMarker + 1; // an empty item, or one that starts with indented code
            }
            return contentColumn;
        }

        /** Searches only within the line, so that scanning stays linear in the document. */
        private boolean contains(int from, String needle) {
            int last = lineEnd - needle.length();
            char first = needle.charAt(0);
            for (int i = from; i <= last; i++) {
                if (doc.charAt(i) == first && doc.startsWith(needle, i)) {
                    return true;
                }
            }
            return false;
        }

        private static boolean isSpaceOrTab(char c) {
            return c == ' ' || c == '\t';
        }

        /** Whitespace as GitHub-flavoured Markdown defines it, line endings aside: space, tab, vertical tab, form feed. */
        private static boolean isWhitespace(char c) {
            return c == ' ' || c == '\t' || c == '\u000B' || c == '\f';
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        private static boolean isAsciiLetter(char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        }

        private static boolean isAsciiLetterOrDigit(char c) {
            return isAsciiLetter(c) || isDigit(c);
        }
    }
}
