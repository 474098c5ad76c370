//! `pbrain-boardlab`: the Gomocup / Piskvork brain (the manager needs a `pbrain-` name).
fn main() -> std::io::Result<()> {
    protocols::pbrain::run_stdio(search::AgentKind::Engine)
}
