//! What a ruleset tells a player about playing it well, rather than about its rules: its
//! doctrine, a door of its own beside the rules' (`Ruleset`), which only the players use, and
//! the opponent's judgement in numbers, with the values each ruleset measured better under its
//! rules. Every method has a default: a ruleset says only where its rules call for it.

use crate::rules::battle::Battle;
use crate::rules::model::{Formation, Unit, UnitId};

/// What a player (the opponent, the straight player) is told of playing these rules well.
pub trait Doctrine {
    /// Whether the rules would strike down this general where he stands were the enemy
    /// `margin` mm nearer (one of its moves): the opponent then steps him back behind his
    /// troops. False by default: most rules strike generals down only in fire or combat.
    fn general_exposed(&self, b: &Battle, u: &Unit, margin: f32) -> bool {
        let _ = (b, u, margin);
        false
    }
    /// Where the rules have a unit carry supplies to friends (ammunition packs), the friend that
    /// needs them now and how near to it, in mm, the unit must stand for them to reach it (0:
    /// in contact): the opponent then takes it there. None by default.
    fn supplies(&self, b: &Battle, u: &Unit) -> Option<(UnitId, f32)> {
        let _ = (b, u);
        None
    }
    /// Whether units in edge contact move as one group for one command (`Command::MoveGroup`):
    /// the opponent then dresses its lines so that they do.
    fn moves_in_groups(&self) -> bool {
        false
    }
    /// A formation the rules reward `u` for taking before it charges `e` (DBFPW's attack
    /// column against foot), which it may take with `Command::Form`: the opponent forms it
    /// before a charge where the fight's odds are better so, or after its move where `e` is
    /// near enough to charge next bound, and never leaves it for line as a column of march.
    /// None by default.
    fn attack_formation(&self, b: &Battle, u: &Unit, e: &Unit) -> Option<Formation> {
        let _ = (b, u, e);
        None
    }
    /// The opponent's judgement under these rules: its defaults (`Tuning::default`, given),
    /// with any number that plays better here, as measured by batch runs. The defaults by
    /// default.
    fn opponent_tuning(&self, defaults: Tuning) -> Tuning {
        defaults
    }
}

/// The opponent's judgement, in numbers: the defaults, with any a ruleset changes where a value
/// measured better under its rules (`Ruleset::opponent_tuning`, read for each decision).
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// The least worth of a fire or a fight it makes (see `Chance::edge`).
    pub attack: f64,
    /// The least worth of the combat a charge brings.
    pub charge: f64,
    /// The least worth of a charge made all in (`Stakes::AllIn`), where any chance to win
    /// would do: a hopeless charge only adds a unit lost to the enemy's count. Measured over
    /// the nine scenarios, 60 games a cell (every charge with a chance before): against random
    /// 1,035, 1,031, 1,019 and 1,018 of 1,080 on seeds 1-60, 61-120, 121-180 and 181-240
    /// (1,031, 1,030, 1,018 and 1,016), against straight 787, 775, 747 and 769 (784, 774, 747
    /// and 769); -0.4: 1,032 and 785 on seeds 1-60, -0.1: 1,035 and 784; a least chance to win
    /// of 0.3 instead: 1,035 and 784, and on seeds 61-120 1,031 and 772. At Lobositz, Prussia
    /// behind by one regiment in its last bound sent dragoons at muskets in bad going (0
    /// against 1): its other charges won, the dragoons were destroyed, and the game was lost
    /// by a share.
    pub all_in: f64,
    /// Which of the ruleset's sample moves it halts short of the enemy (None: it does not).
    pub stand_off: Option<usize>,
    /// One unit in this many is held back as a reserve (0: none).
    pub reserve: usize,
    /// The turn from which the reserve comes on whatever happens.
    pub reserve_turn: u32,
    /// Which of the ruleset's sample moves a unit may stand ahead of its division's line.
    pub line: usize,
    /// Beyond this many long moves from the enemy a unit marches at its best pace, and on with
    /// a second move where the rules allow one.
    pub march: f32,
    /// A general this many long moves from his place behind his troops moves up to it.
    pub follow: f32,
    /// An enemy this many long moves from a place the side keeps sends a unit to guard it.
    pub guard: f32,
    /// Guns unlimber with an enemy this many long moves away; farther off they march limbered
    /// (the straight player too: it is not a matter of odds).
    pub unlimber: f32,
    /// Far off (`Tuning::march`), a unit heads for the enemy nearest by a distance that grows
    /// by this share for each right angle between its front and the enemy: one 45 degrees off
    /// counts half as far again. Nearest by distance alone, units far off turned to each enemy
    /// that came nearest, and wheeled one way and back from bound to bound. Measured over the
    /// nine scenarios, 60 games a cell, on seeds 1-60, 61-120, 121-180 and 181-240: against
    /// random 1,036, 1,032, 1,028 and 1,025 of 1,080 (1,036, 1,030, 1,020 and 1,020 by
    /// distance alone), against straight 780, 772, 745 and 774 (787, 775, 746 and 769). The
    /// straight player keeps to the nearest by distance: it is what it is for. The same
    /// weighing near the enemy too (and for the straight player): 1,025 and 725 on seeds
    /// 121-180; choosing the enemy least off the front among those within 1.15 or 1.3 of the
    /// nearest distance: 1,023 and 720, 1,019 and 752.
    pub ahead: f32,
    /// The share of the turn limit after which it presses the attack: no halting short, no
    /// waiting for the line, charges at any favourable odds, the enemy's places taken.
    pub press: f32,
}

impl Default for Tuning {
    /// As measured against the straight player over the default scenarios: a reserve of one
    /// unit in four cost it games; one in eight does not. Guards sent while the enemy is still
    /// two long moves from the place cost BBB's default battle games as Prussia (12 won of 20
    /// against the straight player, 7 with the longer reach). Guns unlimbered three long moves
    /// from the enemy crept on three inches a bound (BBB manhandles unlimbered guns): at
    /// Rossbach the allies beat the random player in 58 of 100 games so, 73 unlimbering at two.
    /// Pressing from the turn past three fifths of the limit rather than half won 1,029 and 753
    /// of 1,080 games (against random and straight; 60 a cell, seeds 1-60) for 1,022 and 750,
    /// and on seeds 61-120 684 and 489 of 720 for 683 and 479 (the six scenarios of 10 turns
    /// or more, where the two differ); from two fifths, 1,020 and 729. A charge's least worth
    /// of 0.12 rather than 0.05 won 776 and 750 against straight on seeds 1-60 and 61-120
    /// (774 and 746; 0.09: 775 and 747; 0.2: 772 and 745; 0: 768 and 726), against random
    /// 1,027 both (1,027 and 1,026).
    fn default() -> Self {
        Tuning {
            attack: 0.02,
            charge: 0.12,
            all_in: -0.2,
            ahead: 1.0,
            stand_off: Some(1),
            reserve: 8,
            reserve_turn: 3,
            line: 3,
            march: 3.0,
            follow: 2.0,
            guard: 1.0,
            unlimber: 2.0,
            press: 0.6,
        }
    }
}
