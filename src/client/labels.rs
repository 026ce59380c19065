//! Telling creatures apart on the board: a label per creature that no other shares, and the
//! index of its kind (the token's shape).

/// Per creature, the index of its kind (compendium template) in order of first appearance.
pub fn kind_indices(b: &crate::battle::Battle) -> Vec<usize> {
    let mut seen: Vec<&str> = Vec::new();
    b.creatures()
        .iter()
        .map(|f| {
            seen.iter().position(|t| *t == f.template).unwrap_or_else(|| {
                seen.push(&f.template);
                seen.len() - 1
            })
        })
        .collect()
}

/// A short label per creature, never the same for two of them: the initials of its name's
/// words (the first two letters of a one-word name), then its number if the name ends in
/// one ("Grey wolf 3" -> "GW3"). Where two labels still collide, longer spellings of the
/// name are tried, then a running number. Only Latin letters are drawn by the bundled font.
pub fn abbreviations(names: &[&str]) -> Vec<String> {
    let spellings: Vec<Vec<String>> = names.iter().map(|n| spellings_of(n)).collect();
    let mut labels: Vec<String> = spellings.iter().map(|s| s[0].clone()).collect();
    // "Ca" and "CA" would read alike on a small token: labels are compared ignoring case.
    let same = |a: &String, b: &String| a.eq_ignore_ascii_case(b);
    for round in 1..4 {
        let clashing: Vec<usize> =
            (0..labels.len()).filter(|&i| labels.iter().filter(|l| same(l, &labels[i])).count() > 1).collect();
        if clashing.is_empty() {
            return labels;
        }
        for i in clashing {
            if let Some(longer) = spellings[i].get(round) {
                labels[i] = longer.clone();
            }
        }
    }
    // Whatever still clashes gets a running number (identical names, unreadable ones): the
    // first keeps its label, each later one takes the next free number.
    let mut taken = std::collections::HashSet::new();
    labels
        .into_iter()
        .map(|l| {
            let stem: String = l.chars().take(2).collect();
            let mut label = l;
            let mut n = 1;
            while !taken.insert(label.to_ascii_lowercase()) {
                label = format!("{stem}{n}");
                n += 1;
            }
            label
        })
        .collect()
}

/// Ever longer spellings of a name, shortest first.
fn spellings_of(name: &str) -> Vec<String> {
    let words: Vec<String> = name
        .split_whitespace()
        .map(|w| w.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>())
        .filter(|w| !w.is_empty())
        .collect();
    let number = words.last().filter(|w| w.chars().all(|c| c.is_ascii_digit())).cloned().unwrap_or_default();
    let letters: Vec<&String> = words.iter().filter(|w| !w.chars().all(|c| c.is_ascii_digit())).collect();
    let cap = |s: String| {
        let mut c = s.chars();
        c.next().map_or(String::new(), |f| f.to_ascii_uppercase().to_string() + c.as_str())
    };
    let initials: String =
        letters.iter().filter_map(|w| w.chars().next()).take(2).collect::<String>().to_ascii_uppercase();
    let mut out = Vec::new();
    match letters.as_slice() {
        [] => out.push(String::from("?")),
        [one] => {
            out.push(cap(one.chars().take(2).collect()));
            out.push(cap(one.chars().take(3).collect()));
        }
        [first, .., last] => {
            out.push(cap(initials));
            let f = first.chars().next().unwrap_or('?');
            out.push(cap(format!("{f}{}", last.chars().take(2).collect::<String>())));
            out.push(cap(format!(
                "{}{}",
                first.chars().take(2).collect::<String>(),
                last.chars().next().unwrap_or('?')
            )));
        }
    }
    out.iter().map(|s| format!("{s}{number}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unique(labels: &[String]) -> bool {
        let mut seen = std::collections::HashSet::new();
        labels.iter().all(|l| seen.insert(l.to_ascii_lowercase()))
    }

    #[test]
    fn labels_are_short_and_never_collide() {
        let names = ["Grey wolf 1", "Grey wolf 2", "Captain Aldo", "Cato", "Bryn", "Brute", "Dire wolf", "Dara"];
        let labels = abbreviations(&names);
        assert_eq!(labels[0], "GW1");
        assert_eq!(labels[1], "GW2");
        assert!(unique(&labels), "{labels:?}");
        assert!(labels.iter().all(|l| l.len() <= 4), "{labels:?}");
        // Identical names, names with no Latin letters, empty names, a hundred wolves.
        let hostile: Vec<String> =
            ["Wolf", "Wolf", "Wolf", "狼", "狼", "", " ", "Wolf 1", "Wo1"].iter().map(|s| s.to_string()).collect();
        let many: Vec<String> = (0..100).map(|_| "Wolf".to_string()).chain(hostile).collect();
        let refs: Vec<&str> = many.iter().map(String::as_str).collect();
        let labels = abbreviations(&refs);
        assert_eq!(labels.len(), refs.len());
        assert!(unique(&labels), "{labels:?}");
    }

    #[test]
    fn no_shipped_level_has_two_tokens_alike() {
        let content = crate::level::builtin_compendium();
        for path in crate::level::level_files(std::path::Path::new("levels")) {
            let level = crate::level::load_level(&path, content).unwrap();
            let b = crate::battle::Battle::new(&level, content, 1).unwrap();
            let names: Vec<&str> = b.creatures().iter().map(|f| f.name.as_str()).collect();
            let labels = abbreviations(&names);
            assert!(unique(&labels), "{}: {labels:?}", path.display());
        }
    }
}
