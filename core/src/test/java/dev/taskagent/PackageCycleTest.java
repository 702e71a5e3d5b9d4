package dev.taskagent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Core's packages form no import cycle: each package can be read, tested and changed with only the
 * packages below it in mind. The dependencies are read from the compiled classes' constant pools (every
 * class a class names: in its code, its signatures and its generic signatures), as {@code jdeps} does, so
 * that a reference in a javadoc comment does not count and one through a fully qualified name does.
 */
class PackageCycleTest {
    private static final Pattern TYPE_IN_DESCRIPTOR = Pattern.compile("L(dev/taskagent/[\\w/$]+)[;<]");

    @Test
    void noPackageOfCoreDependsOnItselfThroughAnother() throws IOException, URISyntaxException {
        Map<String, Set<String>> dependencies = packageDependencies(classesDirectory());

        assertThat(dependencies).containsKeys("dev.taskagent.task", "dev.taskagent.store", "dev.taskagent.queue");
        assertThat(cycles(dependencies))
                .as("package cycles among %s", dependencies)
                .isEmpty();
    }

    @Test
    void theCycleFinderFindsACycle() {
        Map<String, Set<String>> dependencies = new TreeMap<>();
        dependencies.put("a", Set.of("b"));
        dependencies.put("b", Set.of("c"));
        dependencies.put("c", Set.of("a"));
        dependencies.put("d", Set.of("a"));

        assertThat(cycles(dependencies)).containsExactly(new TreeSet<>(Set.of("a", "b", "c")));
    }

    private static Path classesDirectory() throws URISyntaxException {
        return Path.of(RunError.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
    }

    private static Map<String, Set<String>> packageDependencies(Path classes) throws IOException {
        Map<String, Set<String>> dependencies = new TreeMap<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file :
                    files.filter(path -> path.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(file).toString().replace('\\', '/');
                if (name.equals("module-info.class")) {
                    continue;
                }
                String from = packageOf(name.substring(0, name.length() - ".class".length()));
                Set<String> targets = dependencies.computeIfAbsent(from, key -> new TreeSet<>());
                try (InputStream in = Files.newInputStream(file)) {
                    for (String type : referencedTypes(in)) {
                        String to = packageOf(type);
                        if (to.startsWith("dev.taskagent") && !to.equals(from)) {
                            targets.add(to);
                        }
                    }
                }
            }
        }
        return dependencies;
    }

    private static String packageOf(String internalName) {
        int slash = internalName.lastIndexOf('/');
        return slash < 0 ? "" : internalName.substring(0, slash).replace('/', '.');
    }

    /**
     * Reads the types a class file names: its class constants, and the types in its descriptors and
     * signatures; string literals are left out.
     */
    static Set<String> referencedTypes(InputStream classFile) throws IOException {
        DataInputStream in = new DataInputStream(classFile);
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        String[] texts = new String[count];
        List<Integer> classNames = new ArrayList<>();
        BitSet literals = new BitSet(count);
        for (int index = 1; index < count; index++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> texts[index] = in.readUTF();
                case 7 -> classNames.add(in.readUnsignedShort());
                case 8 -> literals.set(in.readUnsignedShort());
                case 16, 19, 20 -> in.readUnsignedShort();
                case 15 -> {
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    index++; // a long or a double takes two entries
                }
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        Set<String> types = new TreeSet<>();
        for (int index : classNames) {
            String name = texts[index];
            types.add(name.startsWith("[") ? name.replaceAll("^\\[+L?|;$", "") : name);
            literals.clear(index);
        }
        for (int index = 1; index < count; index++) {
            if (texts[index] != null && !literals.get(index)) {
                Matcher type = TYPE_IN_DESCRIPTOR.matcher(texts[index]);
                while (type.find()) {
                    types.add(type.group(1));
                }
            }
        }
        return types;
    }

    /** The strongly connected components of more than one package (Tarjan's algorithm). */
    static List<Set<String>> cycles(Map<String, Set<String>> dependencies) {
        Map<String, Integer> indexes = new HashMap<>();
        Map<String, Integer> lowLinks = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        List<Set<String>> cycles = new ArrayList<>();
        for (String node : dependencies.keySet()) {
            if (!indexes.containsKey(node)) {
                connect(node, dependencies, indexes, lowLinks, stack, cycles);
            }
        }
        return cycles;
    }

    private static void connect(
            String node,
            Map<String, Set<String>> dependencies,
            Map<String, Integer> indexes,
            Map<String, Integer> lowLinks,
            Deque<String> stack,
            List<Set<String>> cycles) {
        indexes.put(node, indexes.size());
        lowLinks.put(node, indexes.get(node));
        stack.push(node);
        for (String next : dependencies.getOrDefault(node, Set.of())) {
            if (!indexes.containsKey(next)) {
                connect(next, dependencies, indexes, lowLinks, stack, cycles);
                lowLinks.put(node, Math.min(lowLinks.get(node), lowLinks.get(next)));
            } else if (stack.contains(next)) {
                lowLinks.put(node, Math.min(lowLinks.get(node), indexes.get(next)));
            }
        }
        if (lowLinks.get(node).equals(indexes.get(node))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                component.add(member);
            } while (!member.equals(node));
            if (component.size() > 1) {
                cycles.add(component);
            }
        }
    }
}
