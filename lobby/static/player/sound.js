// The table's sounds, made by WebAudio (no audio files): a rising two-note chime for your turn, a short click
// for a bet, a bright three-note run for a pot you win. The mute switch is remembered in localStorage.

const KEY = "pokerroom.muted";
const TUNES = {
  turn: [[660, 0.12], [880, 0.16]],
  bet: [[320, 0.05]],
  win: [[523, 0.1], [659, 0.1], [784, 0.18]],
};

export class Sounds {
  constructor() {
    this.context = null;
    this.last = "";               // the last sound asked for (played or muted), for the page's own checks
    this.played = 0;              // how many were really played
  }

  get muted() {
    return localStorage.getItem(KEY) === "1";
  }

  set muted(on) {
    localStorage.setItem(KEY, on ? "1" : "0");
  }

  play(name) {
    this.last = name;
    if (this.muted) return false;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return false;
    try {
      if (!this.context) this.context = new Context();
      const ctx = this.context;
      if (ctx.state === "suspended") ctx.resume().catch(() => {});
      let at = ctx.currentTime;
      for (const [frequency, seconds] of TUNES[name] || []) {
        const tone = ctx.createOscillator();
        const volume = ctx.createGain();
        tone.type = "sine";
        tone.frequency.value = frequency;
        volume.gain.setValueAtTime(0.0001, at);
        volume.gain.exponentialRampToValueAtTime(0.15, at + 0.01);
        volume.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
        tone.connect(volume).connect(ctx.destination);
        tone.start(at);
        tone.stop(at + seconds + 0.02);
        at += seconds;
      }
      this.played += 1;
      return true;
    } catch {
      return false;                 // no audio device: the table plays on silently
    }
  }
}
