package openai

import (
	"bytes"
	"encoding/binary"
	"hash/fnv"
	"image"
	"image/color"
	"image/jpeg"
)

// The media of a completed video, made when they are downloaded from the
// video's ID, size and seconds, so that a video job keeps none of them:
// an MP4 of one H.264 frame that lasts the whole clip (I_PCM macroblocks,
// a tiny picture of the video's aspect ratio that the MP4's track
// presents at the video's size), a WebP thumbnail of the video's size
// (lossless, of one colour, a few dozen bytes), and a JPEG spritesheet of
// one small frame per second. Each is a valid file of its format, of a
// colour drawn from the video's ID, and the same on every download.

// mediaLongSide is the long side, in pixels, of the MP4's coded picture.
const mediaLongSide = 32

// spriteLongSide is the long side of one frame of a spritesheet, and
// spriteColumns the most frames in one of its rows.
const (
	spriteLongSide = 128
	spriteColumns  = 4
)

// videoColor is the colour of a video's media: a bright one drawn from
// its ID.
func videoColor(id string) color.YCbCr {
	h := fnv.New32a()
	h.Write([]byte(id))
	v := h.Sum32()
	r, g, b := uint8(64+v%160), uint8(64+(v>>8)%160), uint8(64+(v>>16)%160)
	y, cb, cr := color.RGBToYCbCr(r, g, b)
	return color.YCbCr{Y: y, Cb: cb, Cr: cr}
}

// scaled is width×height scaled so that its long side is long, each side
// even and at least 2.
func scaled(width, height, long int) (int, int) {
	even := func(n int) int { return max(2, (n+1)&^1) }
	if width >= height {
		return long, even(height * long / width)
	}
	return even(width * long / height), long
}

// --- MP4 ---

// videoMP4 is the MP4 of a video of width×height that lasts seconds.
func videoMP4(id string, width, height, seconds int) []byte {
	w, h := scaled(width, height, mediaLongSide)
	sps, pps, frame := h264Frame(w, h, videoColor(id))
	sample := binary.BigEndian.AppendUint32(nil, uint32(len(frame)))
	sample = append(sample, frame...)

	const timescale = 1000
	duration := uint32(seconds * timescale)
	ftyp := box("ftyp", []byte("isom"), u32(512), []byte("isomiso2avc1mp41"))
	moovOf := func(offset uint32) []byte {
		avcC := box("avcC", []byte{1, sps[1], sps[2], sps[3], 0xff, 0xe1}, u16(uint16(len(sps))), sps,
			[]byte{1}, u16(uint16(len(pps))), pps)
		avc1 := box("avc1", make([]byte, 6), u16(1), make([]byte, 16), u16(uint16(w)), u16(uint16(h)),
			u32(0x00480000), u32(0x00480000), u32(0), u16(1), make([]byte, 32), u16(0x18), u16(0xffff), avcC)
		stbl := box("stbl",
			fullBox("stsd", 0, 0, u32(1), avc1),
			fullBox("stts", 0, 0, u32(1), u32(1), u32(duration)),
			fullBox("stsc", 0, 0, u32(1), u32(1), u32(1), u32(1)),
			fullBox("stsz", 0, 0, u32(0), u32(1), u32(uint32(len(sample)))),
			fullBox("stco", 0, 0, u32(1), u32(offset)))
		minf := box("minf",
			fullBox("vmhd", 0, 1, make([]byte, 8)),
			box("dinf", fullBox("dref", 0, 0, u32(1), fullBox("url ", 0, 1))),
			stbl)
		mdia := box("mdia",
			fullBox("mdhd", 0, 0, u32(0), u32(0), u32(timescale), u32(duration), u16(0x55c4), u16(0)),
			fullBox("hdlr", 0, 0, u32(0), []byte("vide"), make([]byte, 12), []byte("VideoHandler\x00")),
			minf)
		tkhd := fullBox("tkhd", 0, 3, u32(0), u32(0), u32(1), u32(0), u32(duration), make([]byte, 8),
			u16(0), u16(0), u16(0), u16(0), unityMatrix(), u32(uint32(width)<<16), u32(uint32(height)<<16))
		mvhd := fullBox("mvhd", 0, 0, u32(0), u32(0), u32(timescale), u32(duration), u32(0x00010000), u16(0x0100),
			make([]byte, 10), unityMatrix(), make([]byte, 24), u32(2))
		return box("moov", mvhd, box("trak", tkhd, mdia))
	}
	// The chunk offset does not change the moov's length: measure it once,
	// then write it with the offset of the mdat's payload.
	offset := uint32(len(ftyp) + len(moovOf(0)) + 8)
	return bytes.Join([][]byte{ftyp, moovOf(offset), box("mdat", sample)}, nil)
}

// box is an ISO BMFF box of type typ holding parts.
func box(typ string, parts ...[]byte) []byte {
	n := 8
	for _, p := range parts {
		n += len(p)
	}
	out := make([]byte, 0, n)
	out = binary.BigEndian.AppendUint32(out, uint32(n))
	out = append(out, typ...)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// fullBox is a box with a version and flags.
func fullBox(typ string, version byte, flags uint32, parts ...[]byte) []byte {
	head := u32(uint32(version)<<24 | flags&0xffffff)
	return box(typ, append([][]byte{head}, parts...)...)
}

func u32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }
func u16(v uint16) []byte { return binary.BigEndian.AppendUint16(nil, v) }

// unityMatrix is the identity transformation of mvhd and tkhd.
func unityMatrix() []byte {
	var m []byte
	for _, v := range []uint32{0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000} {
		m = append(m, u32(v)...)
	}
	return m
}

// h264Frame is one H.264 picture of width×height (even sides) of the
// colour c: its sequence and picture parameter sets and its IDR slice, as
// NAL units without start codes. The picture is coded in I_PCM
// macroblocks (raw samples, Baseline profile, level 1), which needs no
// transform or entropy coder, and cropped to its size.
func h264Frame(width, height int, c color.YCbCr) (sps, pps, idr []byte) {
	mbW, mbH := (width+15)/16, (height+15)/16

	var s bitWriter
	s.bits(66, 8)   // profile_idc: Baseline
	s.bits(0xc0, 8) // constraint_set0 and constraint_set1
	s.bits(10, 8)   // level_idc: 1.0
	s.ue(0)         // seq_parameter_set_id
	s.ue(0)         // log2_max_frame_num_minus4
	s.ue(2)         // pic_order_cnt_type
	s.ue(1)         // max_num_ref_frames
	s.bit(0)        // gaps_in_frame_num_value_allowed_flag
	s.ue(uint(mbW - 1))
	s.ue(uint(mbH - 1))
	s.bit(1) // frame_mbs_only_flag
	s.bit(1) // direct_8x8_inference_flag
	s.bit(1) // frame_cropping_flag, in units of two pixels (4:2:0)
	s.ue(0)
	s.ue(uint(mbW*16-width) / 2)
	s.ue(0)
	s.ue(uint(mbH*16-height) / 2)
	s.bit(0) // vui_parameters_present_flag
	s.trailing()

	var p bitWriter
	p.ue(0)      // pic_parameter_set_id
	p.ue(0)      // seq_parameter_set_id
	p.bit(0)     // entropy_coding_mode_flag: CAVLC
	p.bit(0)     // bottom_field_pic_order_in_frame_present_flag
	p.ue(0)      // num_slice_groups_minus1
	p.ue(0)      // num_ref_idx_l0_default_active_minus1
	p.ue(0)      // num_ref_idx_l1_default_active_minus1
	p.bit(0)     // weighted_pred_flag
	p.bits(0, 2) // weighted_bipred_idc
	p.se(0)      // pic_init_qp_minus26
	p.se(0)      // pic_init_qs_minus26
	p.se(0)      // chroma_qp_index_offset
	p.bit(1)     // deblocking_filter_control_present_flag
	p.bit(0)     // constrained_intra_pred_flag
	p.bit(0)     // redundant_pic_cnt_present_flag
	p.trailing()

	var f bitWriter
	f.ue(0)      // first_mb_in_slice
	f.ue(7)      // slice_type: I, every slice of the picture
	f.ue(0)      // pic_parameter_set_id
	f.bits(0, 4) // frame_num
	f.ue(0)      // idr_pic_id
	f.bit(0)     // no_output_of_prior_pics_flag
	f.bit(0)     // long_term_reference_flag
	f.se(0)      // slice_qp_delta
	f.ue(1)      // disable_deblocking_filter_idc: off
	for range mbW * mbH {
		f.ue(25) // mb_type: I_PCM
		f.align()
		for range 256 {
			f.bits(uint64(c.Y), 8)
		}
		for range 64 {
			f.bits(uint64(c.Cb), 8)
		}
		for range 64 {
			f.bits(uint64(c.Cr), 8)
		}
	}
	f.trailing()
	return nal(3, 7, s.buf), nal(3, 8, p.buf), nal(3, 5, f.buf)
}

// nal is a NAL unit of type typ holding rbsp, with the emulation
// prevention bytes that keep a start code out of it.
func nal(refIDC, typ byte, rbsp []byte) []byte {
	out := []byte{refIDC<<5 | typ}
	zeros := 0
	for _, b := range rbsp {
		if zeros >= 2 && b <= 3 {
			out = append(out, 3)
			zeros = 0
		}
		out = append(out, b)
		if b == 0 {
			zeros++
		} else {
			zeros = 0
		}
	}
	return out
}

// bitWriter writes the bits of an H.264 RBSP, most significant first.
type bitWriter struct {
	buf []byte
	n   uint8 // bits used of the last byte; 0 when it is full
}

func (w *bitWriter) bit(b uint) {
	if w.n == 0 {
		w.buf = append(w.buf, 0)
	}
	if b != 0 {
		w.buf[len(w.buf)-1] |= 0x80 >> w.n
	}
	w.n = (w.n + 1) % 8
}

// bits writes the n low bits of v.
func (w *bitWriter) bits(v uint64, n int) {
	for i := n - 1; i >= 0; i-- {
		w.bit(uint(v>>i) & 1)
	}
}

// ue writes v as an unsigned Exp-Golomb code.
func (w *bitWriter) ue(v uint) {
	x := uint64(v) + 1
	n := 0
	for x>>(n+1) != 0 {
		n++
	}
	w.bits(0, n)
	w.bits(x, n+1)
}

// se writes v as a signed Exp-Golomb code.
func (w *bitWriter) se(v int) {
	if v > 0 {
		w.ue(uint(2*v - 1))
	} else {
		w.ue(uint(-2 * v))
	}
}

// align writes zero bits up to the next byte.
func (w *bitWriter) align() {
	for w.n != 0 {
		w.bit(0)
	}
}

// trailing writes the RBSP's stop bit and aligns.
func (w *bitWriter) trailing() {
	w.bit(1)
	w.align()
}

// --- WebP ---

// videoThumbnail is the WebP thumbnail of a video of width×height: a
// lossless (VP8L) picture of one colour, whose five prefix codes have one
// symbol each, so that its pixels take no bits at all.
func videoThumbnail(id string, width, height int) []byte {
	r, g, b := color.YCbCrToRGB(videoColor(id).Y, videoColor(id).Cb, videoColor(id).Cr)
	var w lsbWriter
	w.bits(0x2f, 8) // the VP8L signature
	w.bits(uint32(width-1), 14)
	w.bits(uint32(height-1), 14)
	w.bits(0, 1) // alpha_is_used
	w.bits(0, 3) // version
	w.bits(0, 1) // no transform
	w.bits(0, 1) // no colour cache
	w.bits(0, 1) // no meta prefix codes
	for _, sym := range []uint32{uint32(g), uint32(r), uint32(b), 255} {
		w.bits(1, 1) // a simple code
		w.bits(0, 1) // of one symbol
		w.bits(1, 1) // of 8 bits
		w.bits(sym, 8)
	}
	w.bits(1, 1) // the distance code: simple, one symbol, of 1 bit: 0
	w.bits(0, 1)
	w.bits(0, 1)
	w.bits(0, 1)
	data := w.buf
	chunk := append([]byte("VP8L"), binary.LittleEndian.AppendUint32(nil, uint32(len(data)))...)
	chunk = append(chunk, data...)
	if len(data)%2 == 1 {
		chunk = append(chunk, 0)
	}
	out := append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(4+len(chunk)))...)
	out = append(out, "WEBP"...)
	return append(out, chunk...)
}

// lsbWriter writes bits least significant first, as VP8L reads them.
type lsbWriter struct {
	buf []byte
	n   uint8 // bits used of the last byte; 0 when it is full
}

// bits writes the n low bits of v.
func (w *lsbWriter) bits(v uint32, n int) {
	for i := range n {
		if w.n == 0 {
			w.buf = append(w.buf, 0)
		}
		w.buf[len(w.buf)-1] |= byte((v>>i)&1) << w.n
		w.n = (w.n + 1) % 8
	}
}

// --- JPEG ---

// videoSpritesheet is the JPEG spritesheet of a video of width×height
// that lasts seconds: one small frame per second, spriteColumns to a
// row, each a shade of the video's colour.
func videoSpritesheet(id string, width, height, seconds int) []byte {
	fw, fh := scaled(width, height, spriteLongSide)
	frames := max(seconds, 1)
	cols := min(frames, spriteColumns)
	rows := (frames + cols - 1) / cols
	img := image.NewYCbCr(image.Rect(0, 0, cols*fw, rows*fh), image.YCbCrSubsampleRatio420)
	c := videoColor(id)
	for i := range frames {
		y := uint8(int(c.Y) * (frames + i) / (2 * frames))
		x0, y0 := (i%cols)*fw, (i/cols)*fh
		for py := y0; py < y0+fh; py++ {
			for px := x0; px < x0+fw; px++ {
				img.Y[img.YOffset(px, py)] = y
				img.Cb[img.COffset(px, py)] = c.Cb
				img.Cr[img.COffset(px, py)] = c.Cr
			}
		}
	}
	var out bytes.Buffer
	if err := jpeg.Encode(&out, img, &jpeg.Options{Quality: 75}); err != nil {
		panic("openai: encoding a spritesheet: " + err.Error()) // a bytes.Buffer does not fail
	}
	return out.Bytes()
}
