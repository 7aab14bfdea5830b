package words

// Band is a range of the better side's chance and the words for it.
type Band struct {
	Below float64 `json:"below"` // the band holds chances under this (and from the band before)
	Key   string  `json:"key"`   // message key with the side: "standing.w.better"; "" side for even
}

// Bands say who stands better from the better side's chance (a calibrated
// chance to win, a draw counting half): under 55% the game is even, then
// slightly better, better, and from 85% winning. The page reads them from
// words.js.
var Bands = []Band{
	{0.55, "even"},
	{0.65, "slightly"},
	{0.85, "better"},
	{1.01, "winning"},
}

// Standing says in plain words who stands better when white's chance is
// white: "White is better, 62%", the chance being the better side's (or
// white's, when even).
func (p *Printer) Standing(white float64) string {
	side, chance := "w", white
	if white < 0.5 {
		side, chance = "b", 1-white
	}
	pct := p.T("pct", int(100*chance+0.5))
	for _, b := range Bands {
		if chance < b.Below {
			if b.Key == "even" {
				return p.T("standing.even", p.T("pct", int(100*white+0.5)))
			}
			return p.T("standing."+side+"."+b.Key, pct)
		}
	}
	return p.T("standing."+side+".winning", pct)
}
