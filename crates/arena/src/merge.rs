//! The machine-readable report of a tournament (`--json`), and merging the reports and
//! records files of a tournament's shards into those of the whole tournament.
//!
//! A report carries the tournament's settings and every game's result (no timings, which
//! differ from run to run), and its summary is computed from those results alone, in game
//! order. So the merge of all shards' reports is **byte-identical** to the report of the
//! same tournament played in one process, and so is the merge of their records files.

use std::{fmt, time::Duration};

use board_core::{Outcome, Player};
use serde_json::Value;

use crate::{
    game::MoveTiming,
    selfplay::{GameResult, SelfplaySummary, Shard, SprtStatus},
    sprt::Sprt,
};

/// What a tournament was: everything a report needs besides the results.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentInfo {
    /// The game spec, canonical.
    pub spec: String,
    /// Player A, as its player spec prints (`engine`, `ugi:<command>`, ...).
    pub a: String,
    /// Player B, as its player spec prints.
    pub b: String,
    /// The per-move budget, as [`crate::Budget`] prints it.
    pub budget: String,
    /// Where the openings came from, as [`crate::Openings`] prints it (`random:K`,
    /// `book:FILE`).
    pub openings: String,
    /// The tournament seed the pairs' openings (and the players' seeds) derive from.
    pub seed: u64,
    /// Games in the whole tournament (all shards).
    pub games: usize,
    /// The part of the tournament this report covers ([`Shard::ALL`] after a merge).
    pub shard: Shard,
    /// The SPRT the tournament stopped on, if it ran one.
    pub sprt: Option<Sprt>,
}

/// Why reports or records cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot merge: {0}")]
pub struct MergeError(pub String);

fn err(msg: impl Into<String>) -> MergeError {
    MergeError(msg.into())
}

fn json_string(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

fn side_name(p: Player) -> &'static str {
    match p {
        Player::First => "first",
        Player::Second => "second",
    }
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Win(Player::First) => "first-wins",
        Outcome::Win(Player::Second) => "second-wins",
        Outcome::Draw => "draw",
    }
}

/// The report of `results` (index order) as one JSON object: the summary's keys (see
/// [`SelfplaySummary::to_json`]), then `sprt` (when the tournament ran one), `tournament`
/// (the settings) and `results` (one object per game).
pub fn report_json(info: &TournamentInfo, results: &[GameResult]) -> String {
    let summary = SelfplaySummary::of_results(&info.a, &info.b, results).to_json();
    let mut out = summary
        .strip_suffix('}')
        .unwrap_or(summary.as_str())
        .to_string();
    if let Some(sprt) = info.sprt {
        let status = SprtStatus::of_results(sprt, results);
        let [p0, p1, p2, p3, p4] = status.pairs.0;
        out.push_str(&format!(
            r#","sprt":{{"llr":{},"lower":{},"upper":{},"pentanomial":[{p0},{p1},{p2},{p3},{p4}],"decision":{}}}"#,
            crate::selfplay::json_number(status.llr),
            crate::selfplay::json_number(sprt.lower_bound()),
            crate::selfplay::json_number(sprt.upper_bound()),
            match status.decision {
                Some(d) => json_string(&format!("{d:?}")),
                None => "null".into(),
            }
        ));
    }
    out.push_str(&format!(
        r#","tournament":{{"spec":{},"a":{},"b":{},"budget":{},"openings":{},"seed":{},"games":{},"shard":"{}","sprt":{}}}"#,
        json_string(&info.spec),
        json_string(&info.a),
        json_string(&info.b),
        json_string(&info.budget),
        openings_json(&info.openings),
        info.seed,
        info.games,
        info.shard,
        match info.sprt {
            Some(s) => json_string(&s.to_string()),
            None => "null".into(),
        }
    ));
    out.push_str(r#","results":["#);
    for (i, r) in results.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let balance: Vec<String> = r
            .balance
            .iter()
            .map(|(k, v)| format!("{}:{}", json_string(k), exact_number(*v)))
            .collect();
        out.push_str(&format!(
            r#"{{"game":{},"a":"{}","result":"{}","plies":{},"reason":{},"balance":{{{}}},"time":{{"a":{},"b":{}}}}}"#,
            r.index + 1,
            side_name(r.a_side),
            outcome_name(r.outcome),
            r.plies,
            json_string(&r.reason),
            balance.join(","),
            timing_json(&r.move_times[0]),
            timing_json(&r.move_times[1])
        ));
    }
    out.push_str("]}");
    out
}

/// One player's thinking time in one game, in whole microseconds (exact when read back).
fn timing_json(t: &MoveTiming) -> String {
    format!(
        r#"{{"moves":{},"total_us":{},"max_us":{}}}"#,
        t.moves,
        t.total.as_micros(),
        t.max.as_micros()
    )
}

/// A game's `time` object; reports written before it existed have none (no times known).
fn read_timing(r: &Value, game: usize) -> Result<[MoveTiming; 2], MergeError> {
    let Some(time) = r.get("time") else {
        return Ok([MoveTiming::default(); 2]);
    };
    let bad = |what: &str| err(format!("game {game}: bad 'time': {what}"));
    let player = |key: &str| -> Result<MoveTiming, MergeError> {
        let t = time.get(key).ok_or_else(|| bad(&format!("no '{key}'")))?;
        let number = |name: &str| {
            t.get(name)
                .and_then(Value::as_u64)
                .ok_or_else(|| bad(&format!("'{key}.{name}' is not a whole number")))
        };
        Ok(MoveTiming {
            moves: u32::try_from(number("moves")?).map_err(|_| bad("too many moves"))?,
            total: Duration::from_micros(number("total_us")?),
            max: Duration::from_micros(number("max_us")?),
        })
    };
    Ok([player("a")?, player("b")?])
}

/// The openings as a report writes them: random plies as the bare count (as reports always
/// have), anything else as a string.
fn openings_json(openings: &str) -> String {
    match openings
        .strip_prefix("random:")
        .and_then(|k| k.parse::<u32>().ok())
    {
        Some(k) => k.to_string(),
        None => json_string(openings),
    }
}

/// A number that reads back as exactly the same `f64` (Rust prints the shortest such form).
fn exact_number(v: f64) -> String {
    if v.is_finite() {
        format!("{v}")
    } else {
        "null".into()
    }
}

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, MergeError> {
    v.get(key)
        .ok_or_else(|| err(format!("the report has no '{key}'")))
}

fn string(v: &Value, key: &str) -> Result<String, MergeError> {
    field(v, key)?
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| err(format!("'{key}' is not a string")))
}

fn unsigned(v: &Value, key: &str) -> Result<u64, MergeError> {
    field(v, key)?
        .as_u64()
        .ok_or_else(|| err(format!("'{key}' is not a whole number")))
}

/// Reads a report back: the tournament's settings and its results.
pub fn parse_report(v: &Value) -> Result<(TournamentInfo, Vec<GameResult>), MergeError> {
    let t = field(v, "tournament")?;
    let sprt = match field(t, "sprt")? {
        Value::Null => None,
        s => Some(
            s.as_str()
                .ok_or_else(|| err("'sprt' is not a string"))?
                .parse::<Sprt>()
                .map_err(|e| err(e.to_string()))?,
        ),
    };
    let info = TournamentInfo {
        spec: string(t, "spec")?,
        a: string(t, "a")?,
        b: string(t, "b")?,
        budget: string(t, "budget")?,
        openings: match field(t, "openings")? {
            Value::String(s) => s.clone(),
            v => format!(
                "random:{}",
                v.as_u64().ok_or_else(|| err("bad 'openings'"))?
            ),
        },
        seed: unsigned(t, "seed")?,
        games: unsigned(t, "games")? as usize,
        shard: string(t, "shard")?.parse::<Shard>().map_err(err)?,
        sprt,
    };
    let mut results = Vec::new();
    for r in field(v, "results")?
        .as_array()
        .ok_or_else(|| err("'results' is not a list"))?
    {
        let game = unsigned(r, "game")? as usize;
        let a_side = match string(r, "a")?.as_str() {
            "first" => Player::First,
            "second" => Player::Second,
            other => return Err(err(format!("game {game}: bad side '{other}'"))),
        };
        let outcome = match string(r, "result")?.as_str() {
            "first-wins" => Outcome::Win(Player::First),
            "second-wins" => Outcome::Win(Player::Second),
            "draw" => Outcome::Draw,
            other => return Err(err(format!("game {game}: bad result '{other}'"))),
        };
        let balance = field(r, "balance")?
            .as_object()
            .ok_or_else(|| err(format!("game {game}: 'balance' is not an object")))?
            .iter()
            .map(|(k, v)| {
                v.as_f64()
                    .map(|v| (k.clone(), v))
                    .ok_or_else(|| err(format!("game {game}: '{k}' is not a number")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if game == 0 {
            return Err(err("games are numbered from 1"));
        }
        results.push(GameResult {
            index: game - 1,
            a_side,
            outcome,
            plies: u32::try_from(unsigned(r, "plies")?).map_err(|_| err("bad 'plies'"))?,
            reason: string(r, "reason")?,
            balance,
            move_times: read_timing(r, game)?,
        });
    }
    Ok((info, results))
}

/// The whole tournament from the reports of all its shards (in any order).
pub fn merge_reports(
    parts: Vec<(TournamentInfo, Vec<GameResult>)>,
) -> Result<(TournamentInfo, Vec<GameResult>), MergeError> {
    let Some((first, _)) = parts.first() else {
        return Err(err("no reports given"));
    };
    let mut info = first.clone();
    info.shard = Shard::ALL;
    let count = first.shard.count;
    let mut seen = vec![false; count as usize];
    let mut results = Vec::new();
    for (part, part_results) in parts {
        let mut same = part.clone();
        same.shard = Shard::ALL;
        if same != info {
            return Err(err(format!(
                "shard {} is of another tournament ({} {} vs {}, {}, seed {}, {} games)",
                part.shard, part.spec, part.a, part.b, part.budget, part.seed, part.games
            )));
        }
        if part.shard.count != count {
            return Err(err(format!(
                "shard {} does not split the tournament into {count} like the first",
                part.shard
            )));
        }
        let slot = &mut seen[part.shard.index as usize - 1];
        if *slot {
            return Err(err(format!("shard {} is given twice", part.shard)));
        }
        *slot = true;
        results.extend(part_results);
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| !**s)
        .map(|(i, _)| format!("{}/{count}", i + 1))
        .collect();
    if !missing.is_empty() {
        return Err(err(format!("shards missing: {}", missing.join(", "))));
    }
    results.sort_by_key(|r| r.index);
    if let Some(w) = results.windows(2).find(|w| w[0].index == w[1].index) {
        return Err(err(format!("game {} appears twice", w[0].index + 1)));
    }
    Ok((info, results))
}

/// One row of a sweep: the swept keys' values, and the row's report.
pub type SweepRow = (Vec<(String, String)>, String);

/// A sweep's report: a JSON list with one object per setting,
/// `{"setting":[["key","value"],...],"summary":<report>}`.
pub fn sweep_json(rows: &[SweepRow]) -> String {
    let items: Vec<String> = rows
        .iter()
        .map(|(setting, report)| {
            let pairs: Vec<String> = setting
                .iter()
                .map(|(k, v)| format!("[{},{}]", json_string(k), json_string(v)))
                .collect();
            format!(r#"{{"setting":[{}],"summary":{report}}}"#, pairs.join(","))
        })
        .collect();
    format!("[{}]", items.join(","))
}

fn parse_setting(v: &Value) -> Result<Vec<(String, String)>, MergeError> {
    field(v, "setting")?
        .as_array()
        .ok_or_else(|| err("'setting' is not a list"))?
        .iter()
        .map(|pair| match pair.as_array().map(Vec::as_slice) {
            Some([Value::String(k), Value::String(v)]) => Ok((k.clone(), v.clone())),
            _ => Err(err("a setting is not a [key, value] pair")),
        })
        .collect()
}

/// Merges the `--json` outputs of a tournament's shards (a report each, or a sweep's list
/// of reports each) into the output of the whole tournament.
pub fn merge_json(texts: &[String]) -> Result<String, MergeError> {
    let values = texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            serde_json::from_str::<Value>(t)
                .map_err(|e| err(format!("input {} is not JSON: {e}", i + 1)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    match values.first() {
        Some(Value::Array(first)) => {
            let mut rows = Vec::new();
            for (row, item) in first.iter().enumerate() {
                let setting = parse_setting(item)?;
                let mut parts = Vec::new();
                for v in &values {
                    let item = v
                        .as_array()
                        .and_then(|list| list.get(row))
                        .filter(|_| v.as_array().map(Vec::len) == Some(first.len()))
                        .ok_or_else(|| err("the sweeps have different settings"))?;
                    if parse_setting(item)? != setting {
                        return Err(err("the sweeps have different settings"));
                    }
                    parts.push(parse_report(field(item, "summary")?)?);
                }
                let (info, results) = merge_reports(parts)?;
                rows.push((setting, report_json(&info, &results)));
            }
            Ok(sweep_json(&rows))
        }
        Some(_) => {
            let parts = values
                .iter()
                .map(parse_report)
                .collect::<Result<Vec<_>, _>>()?;
            let (info, results) = merge_reports(parts)?;
            Ok(report_json(&info, &results))
        }
        None => Err(err("no inputs given")),
    }
}

/// The number of a records file's game header line `# game N: ...`.
fn game_header(line: &str) -> Option<usize> {
    let rest = line.strip_prefix("# game ")?;
    let (n, _) = rest.split_once(':')?;
    n.parse().ok()
}

/// Merges the `--records` files of a tournament's shards into the records file of the
/// whole tournament: every game block, in game order.
pub fn merge_records(texts: &[String]) -> Result<String, MergeError> {
    let mut blocks: Vec<(usize, String)> = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let mut current: Option<(usize, String)> = None;
        for line in text.split_inclusive('\n') {
            if let Some(n) = game_header(line) {
                blocks.extend(current.take());
                current = Some((n, String::new()));
            }
            match current.as_mut() {
                Some((_, block)) => block.push_str(line),
                None if line.trim().is_empty() => {}
                None => {
                    return Err(err(format!(
                        "input {} does not start with a '# game N:' line",
                        i + 1
                    )));
                }
            }
        }
        blocks.extend(current);
    }
    blocks.sort_by_key(|(n, _)| *n);
    for (expected, (n, _)) in (1..).zip(&blocks) {
        if *n != expected {
            return Err(err(if *n < expected {
                format!("game {n} appears twice")
            } else {
                format!("game {expected} is missing")
            }));
        }
    }
    Ok(blocks.into_iter().map(|(_, b)| b).collect())
}

impl fmt::Display for TournamentInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} vs {}, {}, openings {}, seed {}, {} games, shard {}",
            self.spec,
            self.a,
            self.b,
            self.budget,
            self.openings,
            self.seed,
            self.games,
            self.shard
        )
    }
}
