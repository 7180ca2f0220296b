package brew

// Step plays one turn: the actions of both players (an inactive player's
// action is ignored) are resolved against the state at the start of the
// turn, P0 first, then the shared state is updated, the round counter
// advances and the end of the game is checked. When the game ends, the
// end-of-game ingredient points are added. Invalid actions are waits.
// Step never allocates; on a finished game it does nothing.
func (s *State) Step(acts [Players]Action) {
	if s.Over {
		return
	}
	var t turnLog
	for p := 0; p < Players; p++ {
		s.resolve(p, acts[p], &t)
	}
	s.update(&t)
}

// StepOne plays a turn in which player p acts and the other player waits:
// the usual way a search advances its own line of play.
func (s *State) StepOne(p int, a Action) {
	var acts [Players]Action
	acts[p] = a
	s.Step(acts)
}

// turnLog is what a turn's actions leave for the shared-state update.
type turnLog struct {
	gain      [TomeSize]int32 // tome tax paid this turn, by tome index
	learnt    [Players]int8   // tome index learnt by each player, -1 none
	brewed    [Players]int8   // queue index brewed by each player, -1 none
	hasLearnt bool
	hasBrewed bool
}

// resolve applies one player's action if it is valid.
func (s *State) resolve(p int, a Action, t *turnLog) {
	t.learnt[p], t.brewed[p] = -1, -1
	if !s.P[p].Active || a.Kind == Wait {
		return
	}
	reason, idx := s.check(p, a)
	if reason != okAction {
		return
	}
	pl := &s.P[p]
	switch a.Kind {
	case Rest:
		pl.Castable = allSpells(pl.NSpells)
	case Cast:
		rc := &Recipes[pl.Spells[idx].Recipe]
		for k := 0; k < Tiers; k++ {
			pl.Inv[k] += int32(rc.Delta[k]) * a.Times
		}
		pl.Castable &^= 1 << uint(idx)
	case Learn:
		for i := 0; i < idx; i++ {
			t.gain[i]++
		}
		pl.Inv[0] -= int32(idx)
		slot := s.Tome[idx]
		n := pl.NSpells
		pl.Spells[n] = Spell{ID: uint8(s.NextID), Recipe: slot.ID}
		pl.Castable |= 1 << uint(n)
		pl.NSpells++
		s.NextID++
		room := MaxInventory - Total(&pl.Inv)
		pl.Inv[0] += min(room, slot.Stock)
		t.learnt[p] = int8(idx)
		t.hasLearnt = true
	case Brew:
		o := &s.Orders[idx]
		for k := 0; k < Tiers; k++ {
			pl.Inv[k] -= int32(o.Cost[k])
		}
		pl.Score += s.OrderPrice(idx)
		pl.Deliveries++
		t.brewed[p] = int8(idx)
		t.hasBrewed = true
	}
}

// update applies the shared-state changes of a turn, in the referee's order.
func (s *State) update(t *turnLog) {
	if t.hasLearnt {
		s.removeTome(t.learnt)
	}
	if t.hasBrewed {
		for _, q := range t.brewed {
			if q >= 0 && q < 2 && s.BonusUses[q] > 0 {
				s.BonusUses[q]--
			}
		}
		s.removeOrders(t.brewed)
	}
	if s.BonusUses[0] <= 0 {
		s.BonusUses[0] = s.BonusUses[1]
		s.BonusUses[1] = 0
		s.BonusValue = [2]int32{1, 0}
	}
	for i := 0; i < int(s.NTome); i++ {
		s.Tome[i].Stock += t.gain[i]
	}
	s.Round++
	r := s.rules()
	over := s.Round >= MaxRounds || s.ActivePlayers() <= 1
	for p := range s.P {
		if s.P[p].Deliveries >= r.goal {
			over = true
		}
	}
	if over {
		s.Over = true
		if r.invPoints {
			for p := range s.P {
				if pl := &s.P[p]; pl.Active {
					pl.Score += pl.Inv[1] + pl.Inv[2] + pl.Inv[3]
				}
			}
		}
	}
}

// removeTome drops the learnt tome slots (once each) and refills from the
// deck, one new spell per distinct learnt spell.
func (s *State) removeTome(learnt [Players]int8) {
	distinct := 0
	for p, k := range learnt {
		if k >= 0 && (p == 0 || learnt[0] != k) {
			distinct++
		}
	}
	n := 0
	for i := 0; i < int(s.NTome); i++ {
		if int8(i) == learnt[0] || int8(i) == learnt[1] {
			continue
		}
		s.Tome[n] = s.Tome[i]
		n++
	}
	for ; distinct > 0 && s.TomePos < s.TomeLen; distinct-- {
		s.Tome[n] = TomeSlot{ID: s.drawTome()}
		n++
	}
	// Unused slots are zero, so equal games are equal values.
	for i := n; i < int(s.NTome); i++ {
		s.Tome[i] = TomeSlot{}
	}
	s.NTome = uint8(n)
}

// removeOrders drops the brewed queue slots (once each) and refills.
func (s *State) removeOrders(brewed [Players]int8) {
	distinct := 0
	for p, q := range brewed {
		if q >= 0 && (p == 0 || brewed[0] != q) {
			distinct++
		}
	}
	n := 0
	for i := 0; i < int(s.NOrders); i++ {
		if int8(i) == brewed[0] || int8(i) == brewed[1] {
			continue
		}
		s.Orders[n] = s.Orders[i]
		n++
	}
	for ; distinct > 0 && s.OrderPos < s.OrderLen; distinct-- {
		s.Orders[n] = s.makeOrder(s.drawOrder())
		n++
	}
	for i := n; i < int(s.NOrders); i++ {
		s.Orders[i] = OrderSlot{}
	}
	s.NOrders = uint8(n)
}
