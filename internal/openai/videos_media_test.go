package openai

import (
	"bytes"
	"encoding/binary"
	"image/jpeg"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The media of a video are valid files of their formats, checked with
// the standard library where it decodes them (JPEG) and by their
// structure where it does not (WebP, MP4). Once, by hand, ffmpeg 5.1
// (Debian's) decoded all three without an error for 720x1280 and
// 1792x1024 (ffprobe: h264 of one frame lasting 8 s, webp of the video's
// size, mjpeg of the sheet's): the tests do not depend on it.

// mediaSizes are sizes the API allows, tall and wide.
var mediaSizes = [][2]int{{720, 1280}, {1280, 720}, {1024, 1792}, {1792, 1024}}

func TestVideoSpritesheetIsAJPEGOfOneFramePerSecond(t *testing.T) {
	for _, sz := range mediaSizes {
		for _, seconds := range []int{4, 8, 12} {
			b := videoSpritesheet("video_x", sz[0], sz[1], seconds)
			img, err := jpeg.Decode(bytes.NewReader(b))
			require.NoError(t, err)
			fw, fh := scaled(sz[0], sz[1], spriteLongSide)
			cols := min(seconds, spriteColumns)
			rows := (seconds + cols - 1) / cols
			assert.Equal(t, cols*fw, img.Bounds().Dx(), "%v %ds", sz, seconds)
			assert.Equal(t, rows*fh, img.Bounds().Dy(), "%v %ds", sz, seconds)
			assert.Less(t, len(b), 16<<10, "a few KiB")
		}
	}
}

func TestVideoThumbnailIsALosslessWebPOfTheVideosSize(t *testing.T) {
	for _, sz := range mediaSizes {
		b := videoThumbnail("video_x", sz[0], sz[1])
		require.GreaterOrEqual(t, len(b), 21)
		assert.Equal(t, "RIFF", string(b[0:4]))
		assert.Equal(t, uint32(len(b)-8), binary.LittleEndian.Uint32(b[4:8]), "the RIFF size")
		assert.Equal(t, "WEBP", string(b[8:12]))
		assert.Equal(t, "VP8L", string(b[12:16]))
		size := binary.LittleEndian.Uint32(b[16:20])
		assert.Equal(t, len(b)-20, int(size+size%2), "the chunk's size, padded to even")
		assert.Equal(t, byte(0x2f), b[20], "the VP8L signature")
		bits := binary.LittleEndian.Uint32(b[21:25])
		assert.Equal(t, sz[0], int(bits&0x3fff)+1, "width")
		assert.Equal(t, sz[1], int(bits>>14&0x3fff)+1, "height")
		assert.Zero(t, bits>>29, "version 0")
	}
	assert.Equal(t, videoThumbnail("video_a", 720, 1280), videoThumbnail("video_a", 720, 1280), "the same on every download")
}

// mp4Box is one ISO BMFF box: its type and payload.
type mp4Box struct {
	typ     string
	payload []byte
	offset  int // of the payload in the file
}

// mp4Boxes splits b (at offset base in the file) into its boxes, failing
// the test on a size that does not fit.
func mp4Boxes(t *testing.T, b []byte, base int) []mp4Box {
	t.Helper()
	var out []mp4Box
	for i := 0; i < len(b); {
		require.GreaterOrEqual(t, len(b)-i, 8, "a box header")
		n := int(binary.BigEndian.Uint32(b[i:]))
		require.True(t, n >= 8 && i+n <= len(b), "box of %d bytes at %d of %d", n, i, len(b))
		out = append(out, mp4Box{typ: string(b[i+4 : i+8]), payload: b[i+8 : i+n], offset: base + i + 8})
		i += n
	}
	return out
}

// child is the box of type typ among boxes.
func child(t *testing.T, boxes []mp4Box, typ string) mp4Box {
	t.Helper()
	for _, b := range boxes {
		if b.typ == typ {
			return b
		}
	}
	require.Failf(t, "no box", "%s", typ)
	return mp4Box{}
}

func TestVideoMP4HasItsBoxesAndOneH264Sample(t *testing.T) {
	for _, sz := range mediaSizes {
		b := videoMP4("video_x", sz[0], sz[1], 12)
		assert.Less(t, len(b), 8<<10, "a few KiB")
		top := mp4Boxes(t, b, 0)
		require.Len(t, top, 3)
		assert.Equal(t, []string{"ftyp", "moov", "mdat"}, []string{top[0].typ, top[1].typ, top[2].typ})
		assert.Equal(t, "isom", string(top[0].payload[:4]))

		moov := mp4Boxes(t, top[1].payload, top[1].offset)
		mvhd := child(t, moov, "mvhd").payload
		timescale, duration := binary.BigEndian.Uint32(mvhd[12:]), binary.BigEndian.Uint32(mvhd[16:])
		assert.Equal(t, 12.0, float64(duration)/float64(timescale), "lasts the video's seconds")
		trak := mp4Boxes(t, child(t, moov, "trak").payload, 0)
		tkhd := child(t, trak, "tkhd").payload
		assert.Equal(t, uint32(sz[0])<<16, binary.BigEndian.Uint32(tkhd[76:]), "presented at the video's width")
		assert.Equal(t, uint32(sz[1])<<16, binary.BigEndian.Uint32(tkhd[80:]), "and height")
		mdia := mp4Boxes(t, child(t, trak, "mdia").payload, 0)
		assert.Equal(t, "vide", string(child(t, mdia, "hdlr").payload[8:12]))
		minf := mp4Boxes(t, child(t, mdia, "minf").payload, 0)
		stbl := mp4Boxes(t, child(t, minf, "stbl").payload, 0)
		stsd := child(t, stbl, "stsd").payload
		assert.Equal(t, "avc1", string(stsd[12:16]))
		stsz := child(t, stbl, "stsz").payload
		stco := child(t, stbl, "stco").payload
		sampleSize := int(binary.BigEndian.Uint32(stsz[12:]))
		chunkOffset := int(binary.BigEndian.Uint32(stco[8:]))
		assert.Equal(t, top[2].offset, chunkOffset, "the chunk is the mdat's payload")
		assert.Equal(t, len(top[2].payload), sampleSize)
		// The sample is one length-prefixed NAL unit: an IDR slice.
		nal := top[2].payload
		assert.Equal(t, len(nal)-4, int(binary.BigEndian.Uint32(nal)))
		assert.Equal(t, byte(5), nal[4]&0x1f, "an IDR slice")
	}
}
