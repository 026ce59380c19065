//! Maps in level and compendium files whose keys must each be written once. Read as a plain
//! map, a key written twice kept its last entry without a word: two `"floor"` terrains, the
//! second silently used; two weapons of one name, the first lost.

use serde::de::{Deserialize, Deserializer, Error, MapAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

/// `#[serde(deserialize_with = "unique_keys::deserialize")]`: a map that refuses a repeated
/// key, naming it (the file's reader adds where it stands).
pub fn deserialize<'de, D, K, V>(deserializer: D) -> Result<BTreeMap<K, V>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + fmt::Debug,
    V: Deserialize<'de>,
{
    struct UniqueKeys<K, V>(PhantomData<(K, V)>);
    impl<'de, K, V> Visitor<'de> for UniqueKeys<K, V>
    where
        K: Deserialize<'de> + Ord + fmt::Debug,
        V: Deserialize<'de>,
    {
        type Value = BTreeMap<K, V>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a map whose keys are each written once")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Self::Value, A::Error> {
            let mut map = BTreeMap::new();
            while let Some(key) = entries.next_key::<K>()? {
                if map.contains_key(&key) {
                    return Err(A::Error::custom(format!("the key {key:?} is written twice")));
                }
                let value = entries.next_value()?;
                map.insert(key, value);
            }
            Ok(map)
        }
    }
    deserializer.deserialize_map(UniqueKeys(PhantomData))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    #[derive(serde::Deserialize, Debug)]
    struct Holder {
        #[serde(deserialize_with = "super::deserialize")]
        map: BTreeMap<String, u32>,
    }

    #[test]
    fn a_key_written_twice_is_refused_where_it_stands() {
        let ok: Holder = ron::from_str("(map: { \"a\": 1, \"b\": 2 })").unwrap();
        assert_eq!(ok.map.len(), 2);
        let err = ron::from_str::<Holder>("(map: {\n  \"a\": 1,\n  \"a\": 2,\n})").unwrap_err();
        assert!(err.to_string().contains("the key \"a\" is written twice"), "{err}");
        assert_eq!(err.span.start.line, 3, "{err}");
    }
}
