//! The table and what a scenario lays on it besides the units: its size, the deployment zones,
//! the objective, the names and dates shown to players.

use crate::rules::geometry::{Base, Pt};
use crate::rules::model::Side;
use serde::{Deserialize, Serialize};

/// Table size in mm.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub width: f32,
    pub height: f32,
}

impl Table {
    /// True when the whole base lies on the table.
    pub fn holds(&self, base: &Base) -> bool {
        base.corners().iter().all(|p| {
            p.x >= -0.01 && p.y >= -0.01 && p.x <= self.width + 0.01 && p.y <= self.height + 0.01
        })
    }

    /// True when the point lies on the table.
    pub fn contains(&self, p: Pt) -> bool {
        p.x >= 0.0 && p.y >= 0.0 && p.x <= self.width && p.y <= self.height
    }

    /// The base moved straight in just far enough to lie on the table (as it is where it does).
    pub fn pull_in(&self, base: &Base) -> Base {
        let corners = base.corners();
        let over = |lo: f32, hi: f32, min: f32, max: f32| {
            if lo < min {
                min - lo
            } else if hi > max {
                max - hi
            } else {
                0.0
            }
        };
        let xs = corners.iter().map(|p| p.x);
        let ys = corners.iter().map(|p| p.y);
        let dx = over(
            xs.clone().fold(f32::INFINITY, f32::min),
            xs.fold(f32::NEG_INFINITY, f32::max),
            0.0,
            self.width,
        );
        let dy = over(
            ys.clone().fold(f32::INFINITY, f32::min),
            ys.fold(f32::NEG_INFINITY, f32::max),
            0.0,
            self.height,
        );
        Base {
            centre: Pt::new(base.centre.x + dx, base.centre.y + dy),
            ..*base
        }
    }
}

/// A rectangle of the table where a side may deploy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    pub side: Side,
    pub min: Pt,
    pub max: Pt,
}

impl Zone {
    pub fn holds(&self, base: &Base) -> bool {
        base.corners().iter().all(|p| {
            p.x >= self.min.x && p.y >= self.min.y && p.x <= self.max.x && p.y <= self.max.y
        })
    }
}

/// The defender's objective: taken by the attacker, it counts as lost units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Objective {
    pub at: Pt,
    /// The side that holds it at the start.
    pub owner: Side,
    pub taken: bool,
}

/// Names and dates shown to players.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Info {
    pub name: String,
    pub date: String,
    pub description: String,
}
